#pragma once
// The Cholesky factorization of a small symmetric positive definite matrix (at most K x K, held
// in fixed arrays) with a proof of its conditioning, for the VRM's Newton steps (vrm_dual.hpp), on
// the host and the device.

#include <cmath>

#include "vortex/math/hd.hpp"

namespace vortex::detail {

// The factor L of A = L L^T (n x n, entries a(i, j), i >= j, the lower triangle) and the
// reciprocals of its diagonal; false where a pivot is not positive. A column is scaled by its
// pivot's reciprocal: one division per column (a double division costs a device thread tens of
// instructions).
template <int K, class Entry>
VORTEX_HD bool cholesky_factor(int n, Entry a, double (&l)[K][K], double (&inverse_diagonal)[K]) {
  for (int j = 0; j < n; ++j) {
    double d = a(j, j);
    for (int k = 0; k < j; ++k) d -= l[j][k] * l[j][k];
    if (!(d > 0)) return false;
    l[j][j] = sqrt(d);
    const double scale = inverse_diagonal[j] = 1 / l[j][j];
    for (int i = j + 1; i < n; ++i) {
      double v = a(i, j);
      for (int k = 0; k < j; ++k) v -= l[i][k] * l[j][k];
      l[i][j] = v * scale;
    }
  }
  return true;
}

template <int K>
class SmallCholesky {
 public:
  // Factors the n x n matrix with entries a(i, j), i >= j (the lower triangle). True when it is
  // positive definite with trace(A) trace(A^-1) < 1e10: that product bounds the condition number
  // from above, so every eigenvalue then exceeds 1e-10 of the largest.
  template <class Entry>
  VORTEX_HD bool factor(int n, Entry a) {
    n_ = n;
    // The factor L in inverse_'s place, turned into L^-1 there column by column (a device thread
    // keeps one K x K array in local memory rather than two). Column c of L^-1 reads L's columns
    // c and after, still L's, and L^-1's entries above it in column c, already written; entry
    // (i, c) of L is read last for row i, just before L^-1's takes its place.
    double diagonal[K];  // the reciprocals of L's diagonal
    if (!cholesky_factor<K>(n, a, inverse_, diagonal)) return false;
    double trace = 0;
    for (int j = 0; j < n; ++j) trace += a(j, j);
    // trace(A^-1) = |L^-1|_F^2 >= 1 / (smallest eigenvalue); trace(A) >= the largest.
    double inverse_trace = 0;
    for (int c = 0; c < n; ++c) {
      inverse_[c][c] = diagonal[c];
      inverse_trace += inverse_[c][c] * inverse_[c][c];
      for (int i = c + 1; i < n; ++i) {
        double v = 0;
        for (int k = c; k < i; ++k) v -= inverse_[i][k] * inverse_[k][c];
        inverse_[i][c] = v * diagonal[i];
        inverse_trace += inverse_[i][c] * inverse_[i][c];
      }
    }
    return trace * inverse_trace < 1e10;
  }

  // x = A^-1 r = L^-T L^-1 r (x may be r).
  VORTEX_HD void solve(const double* r, double* x) const {
    double y[K];
    for (int i = 0; i < n_; ++i) {
      y[i] = 0;
      for (int k = 0; k <= i; ++k) y[i] += inverse_[i][k] * r[k];
    }
    for (int i = 0; i < n_; ++i) {
      double v = 0;
      for (int k = i; k < n_; ++k) v += inverse_[k][i] * y[k];
      x[i] = v;
    }
  }

 private:
  int n_ = 0;
  double inverse_[K][K];
};

}  // namespace vortex::detail

namespace vortex::detail {

// x = A^-1 rhs for a symmetric positive definite n x n matrix with entries a(i, j), i >= j, by a
// Cholesky factorization without the test of its conditioning (for matrices shifted to be well
// enough conditioned). False, x untouched, where a pivot is not positive.
template <int K, class Entry>
VORTEX_HD bool cholesky_solve(int n, Entry a, const double* rhs, double* x) {
  double l[K][K], diagonal[K], y[K];
  if (!cholesky_factor<K>(n, a, l, diagonal)) return false;
  for (int i = 0; i < n; ++i) {  // L y = rhs
    double v = rhs[i];
    for (int k = 0; k < i; ++k) v -= l[i][k] * y[k];
    y[i] = v * diagonal[i];
  }
  for (int i = n - 1; i >= 0; --i) {  // L^T x = y
    double v = y[i];
    for (int k = i + 1; k < n; ++k) v -= l[k][i] * x[k];
    x[i] = v * diagonal[i];
  }
  return true;
}

}  // namespace vortex::detail
