#pragma once
// The host's side of the VRM's dual solve (vortex/math/vrm_dual.hpp): the fallback that takes
// the rare steps the shared solve leaves to it, the device's (vrm::SmallFallback), with Eigen's
// LDL^T where its Cholesky factorization of a shifted matrix declines; and Eigen's
// eigendecomposition and LDL^T alone (EigenFallback, the reference the tests compare with).

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <algorithm>

#include "vortex/math/vrm_dual.hpp"

namespace vortex::detail {

// How the Newton direction is found. `cholesky_first`: by Cholesky factorizations where they are
// provably well conditioned (vrm::detail::cholesky_direction), by the eigendecomposition of the
// Hessian elsewhere. `eigen_only`: by the eigendecomposition at every step (the reference for the
// first).
enum class VrmNewton { cholesky_first, eigen_only };

template <int K>
class EigenFallback {
 public:
  using Mat = Eigen::Matrix<double, K, K>;
  using Vec = Eigen::Matrix<double, K, 1>;

  // x = (H + shift I)^-1 rhs by LDL^T (H: its lower triangle).
  bool regularized_solve(const double (&h)[K][K], double shift, const double* rhs, double* x) {
    Mat a = lower(h);
    a.diagonal().array() += shift;
    const Vec solution =
        a.template selfadjointView<Eigen::Lower>().ldlt().solve(Eigen::Map<const Vec>(rhs));
    for (int k = 0; k < K; ++k) x[k] = solution[k];
    return true;
  }

  // The direction by the eigendecomposition of H: eigenvalues below 1e-12 of the largest count as
  // zero.
  vrm::Direction eigen_direction(const double (&h)[K][K], const double* r_in, double null_floor,
                                 double* out) {
    eigen_.compute(lower(h));
    const Vec& mu = eigen_.eigenvalues();
    const double cut = 1e-12 * std::max(mu.maxCoeff(), 1e-300);
    const Vec coef = eigen_.eigenvectors().transpose() * Eigen::Map<const Vec>(r_in);
    Vec range_coef = Vec::Zero(), null_coef = Vec::Zero();
    for (int k = 0; k < K; ++k) (mu[k] > cut ? range_coef[k] : null_coef[k]) = coef[k];
    if (null_coef.norm() > null_floor) {
      store(eigen_.eigenvectors() * null_coef, out);
      return vrm::Direction::null_space;
    }
    for (int k = 0; k < K; ++k) range_coef[k] = mu[k] > cut ? range_coef[k] / mu[k] : 0.0;
    store(eigen_.eigenvectors() * range_coef, out);
    return vrm::Direction::newton;
  }

 private:
  static void store(const Vec& v, double* out) {
    for (int k = 0; k < K; ++k) out[k] = v[k];
  }
  // The symmetric matrix of the lower triangle h (the eigensolver reads only that triangle).
  static Mat lower(const double (&h)[K][K]) {
    Mat a = Mat::Zero();
    for (int j = 0; j < K; ++j)
      for (int i = j; i < K; ++i) a(i, j) = h[i][j];
    return a;
  }

  Eigen::SelfAdjointEigenSolver<Mat> eigen_;
};

// The host's fallback: the device's steps, so that an owner deferred by the device's first solves
// gets the same result from the device's later solve and from the host's; Eigen's LDL^T only where
// the device would decline as well.
template <int K>
struct HostFallback {
  bool regularized_solve(const double (&h)[K][K], double shift, const double* rhs, double* x) {
    return small.regularized_solve(h, shift, rhs, x) || eigen.regularized_solve(h, shift, rhs, x);
  }
  vrm::Direction eigen_direction(const double (&h)[K][K], const double* r, double null_floor,
                                 double* out) {
    return small.eigen_direction(h, r, null_floor, out);
  }
  vrm::SmallFallback<K> small;
  EigenFallback<K> eigen;
};

}  // namespace vortex::detail
