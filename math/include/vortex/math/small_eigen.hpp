#pragma once
// The eigendecomposition of a small symmetric matrix (K x K in fixed arrays) by cyclic Jacobi
// rotations, on the host and the device: A = V diag(value) V^T, V orthogonal. Each rotation zeroes
// one off-diagonal entry (Golub and Van Loan, Matrix Computations, section 8.5); sweeps go on until
// the off-diagonal part is below rounding of the whole (quadratic convergence: a handful of
// sweeps).

#include <cmath>

#include "vortex/math/hd.hpp"

namespace vortex::detail {

template <int K>
struct SymmetricEigen {
  double value[K];
  double vector[K][K];  // column j: the eigenvector of value[j]

  // From the lower triangle of A (entries lower[i][j], i >= j).
  VORTEX_HD void compute(const double (&lower)[K][K]) {
    double a[K][K];
    double total = 0;
    for (int i = 0; i < K; ++i)
      for (int j = 0; j < K; ++j) {
        a[i][j] = i >= j ? lower[i][j] : lower[j][i];
        vector[i][j] = i == j ? 1 : 0;
        total += a[i][j] * a[i][j];
      }
    for (int sweep = 0; sweep < 60; ++sweep) {
      double off = 0;
      for (int p = 0; p < K; ++p)
        for (int q = p + 1; q < K; ++q) off += a[p][q] * a[p][q];
      if (!(off > 1e-34 * total)) break;  // (also stops on NaN)
      for (int p = 0; p < K; ++p)
        for (int q = p + 1; q < K; ++q) {
          if (a[p][q] == 0) continue;
          // The rotation J (c, s) with (J^T A J)_pq = 0, the smaller of the two angles.
          const double tau = (a[q][q] - a[p][p]) / (2 * a[p][q]);
          const double t = (tau >= 0 ? 1 : -1) / (fabs(tau) + sqrt(1 + tau * tau));
          const double c = 1 / sqrt(1 + t * t), s = t * c;
          for (int k = 0; k < K; ++k) {  // A J
            const double kp = a[k][p], kq = a[k][q];
            a[k][p] = c * kp - s * kq;
            a[k][q] = s * kp + c * kq;
          }
          for (int k = 0; k < K; ++k) {  // J^T (A J)
            const double pk = a[p][k], qk = a[q][k];
            a[p][k] = c * pk - s * qk;
            a[q][k] = s * pk + c * qk;
          }
          a[p][q] = a[q][p] = 0;
          for (int k = 0; k < K; ++k) {  // V J
            const double kp = vector[k][p], kq = vector[k][q];
            vector[k][p] = c * kp - s * kq;
            vector[k][q] = s * kp + c * kq;
          }
        }
    }
    for (int i = 0; i < K; ++i) value[i] = a[i][i];
  }
};

}  // namespace vortex::detail
