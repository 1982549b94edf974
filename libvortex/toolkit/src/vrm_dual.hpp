#pragma once
// The dual method of vrm.hpp for non-negative fractions of least weighted norm with K moment
// conditions sum_q f_q a_q = b: f_q = max(0, a_q . lambda) / c_q, Newton steps on the multipliers
// lambda. Fixed-size matrices and the caller's vectors: a solve allocates nothing once they have
// grown.

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <vector>

#include "small_cholesky.hpp"

namespace vortex::detail {

// How the Newton direction is found. `cholesky_first`: by Cholesky factorizations where they are
// provably well conditioned (cholesky_direction), by the eigendecomposition of the Hessian
// elsewhere. `eigen_only`: by the eigendecomposition at every step (the reference for the first).
enum class VrmNewton { cholesky_first, eigen_only };

// The step to take from the multipliers lambda, with the moment residual r there.
enum class VrmDirection {
  newton,      // H^+ r (H's pseudo-inverse), with a line search
  null_space,  // r's part that the active rows cannot produce: exact step to a breakpoint
  unknown,     // the cheap factorizations did not apply
};

// By a Cholesky factorization of H where it is provably well conditioned (so that all of its
// eigenvalues lie above the eigen path's cut, 1e-12 of the largest, and H^+ = H^-1); else, where
// fewer than K rows s_q = a_q / sqrt(c_q) are active, by one of their Gram matrix G = S^T S
// (k x k): range(H) = range(S), so r's part outside it is r - S G^-1 S^T r and H^+ r =
// S G^-2 S^T r. Both are the eigen path's results where G is well conditioned, since H's
// non-zero eigenvalues are G's.
template <int K>
VrmDirection cholesky_direction(const Eigen::Matrix<double, K, K>& h,
                                const Eigen::Matrix<double, K, 1>& r,
                                const std::vector<Eigen::Matrix<double, K, 1>>& a,
                                const std::vector<double>& inv_c, const int* active, int k,
                                double null_floor, Eigen::Matrix<double, K, 1>& out) {
  using Vec = Eigen::Matrix<double, K, 1>;
  SmallCholesky<K> cholesky;
  if (cholesky.factor(K, [&](int i, int j) { return h(i, j); })) {
    cholesky.solve(r.data(), out.data());
    return VrmDirection::newton;
  }
  if (k >= K) return VrmDirection::unknown;
  if (k == 0) {  // nothing active: all of r lies outside the range
    out = r;
    if (out.norm() > null_floor) return VrmDirection::null_space;
    out.setZero();
    return VrmDirection::newton;
  }
  Vec s[K];
  for (int i = 0; i < k; ++i) s[i] = std::sqrt(inv_c[active[i]]) * a[active[i]];
  if (!cholesky.factor(k, [&](int i, int j) { return s[i].dot(s[j]); }))
    return VrmDirection::unknown;
  double z[K];  // G^-1 S^T r
  for (int i = 0; i < k; ++i) z[i] = s[i].dot(r);
  cholesky.solve(z, z);
  Vec range = Vec::Zero();
  for (int i = 0; i < k; ++i) range += z[i] * s[i];
  out = r - range;
  if (out.norm() > null_floor) return VrmDirection::null_space;
  cholesky.solve(z, z);
  out.setZero();
  for (int i = 0; i < k; ++i) out += z[i] * s[i];
  return VrmDirection::newton;
}

// The same by the eigendecomposition of H: eigenvalues below 1e-12 of the largest count as zero.
template <int K>
VrmDirection eigen_direction(const Eigen::Matrix<double, K, K>& h,
                             const Eigen::Matrix<double, K, 1>& r, double null_floor,
                             Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, K, K>>& eigen,
                             Eigen::Matrix<double, K, 1>& out) {
  using Vec = Eigen::Matrix<double, K, 1>;
  eigen.compute(h);
  const Vec& mu = eigen.eigenvalues();
  const double cut = 1e-12 * std::max(mu.maxCoeff(), 1e-300);
  const Vec coef = eigen.eigenvectors().transpose() * r;
  Vec range_coef = Vec::Zero(), null_coef = Vec::Zero();
  for (int k = 0; k < K; ++k) (mu[k] > cut ? range_coef[k] : null_coef[k]) = coef[k];
  if (null_coef.norm() > null_floor) {
    out = eigen.eigenvectors() * null_coef;
    return VrmDirection::null_space;
  }
  for (int k = 0; k < K; ++k) range_coef[k] = mu[k] > cut ? range_coef[k] / mu[k] : 0.0;
  out = eigen.eigenvectors() * range_coef;
  return VrmDirection::newton;
}

// Rows a_q, inverse weights 1 / c_q; fills f (and the dots a_q . lambda; trial_dots is scratch).
// Returns false when there is no non-negative solution.
template <int K>
bool solve_nonnegative(const std::vector<Eigen::Matrix<double, K, 1>>& a,
                       const std::vector<double>& inv_c, const Eigen::Matrix<double, K, 1>& b,
                       std::vector<double>& f, std::vector<double>& dots,
                       std::vector<double>& trial_dots, VrmNewton newton_by, double* residual_out,
                       int* iterations_out) {
  using Vec = Eigen::Matrix<double, K, 1>;
  using Mat = Eigen::Matrix<double, K, K>;
  const int m = static_cast<int>(a.size());
  f.assign(m, 0.0);
  dots.resize(m);
  trial_dots.resize(m);
  if (m == 0) return false;
  const bool cholesky = newton_by == VrmNewton::cholesky_first;
  // Converged residuals sit at 1e-16..1e-12 (rounding of the K x K solves); a stalled line
  // search below `loose` is rounding too, not infeasibility.
  const double size = std::max(1.0, b.cwiseAbs().maxCoeff());
  const double tol = 1e-12 * size;
  const double loose = 1e-9 * size;
  const double null_floor = 1e-13 * b.norm();  // a smaller part outside H's range is rounding

  // The dual at the current multipliers, from their dots a_q . lambda.
  auto dual_at_dots = [&](const Vec& lambda) {
    double v = b.dot(lambda);
    for (int q = 0; q < m; ++q) {
      const double t = std::max(0.0, dots[q]);
      v -= 0.5 * t * t * inv_c[q];
    }
    return v;
  };
  // The dual at a trial point; keeps its dots (for residual_at and the next iteration).
  auto dual_value = [&](const Vec& trial) {
    double v = b.dot(trial);
    for (int q = 0; q < m; ++q) {
      const double t = std::max(0.0, trial_dots[q] = a[q].dot(trial));
      v -= 0.5 * t * t * inv_c[q];
    }
    return v;
  };
  // Adds a_q a_q^T / c_q to the lower triangle of h (the factorizations read no other).
  auto add_row = [&](Mat& h, int q) {
    const Vec wa = inv_c[q] * a[q];
    for (int j = 0; j < K; ++j)
      for (int i = j; i < K; ++i) h(i, j) += a[q][i] * wa[j];
  };

  // Start from the multipliers of the problem without the sign constraints: exact where all
  // neighbours' rows are well conditioned (then, if every fraction is positive, already the
  // solution), regularized otherwise.
  Mat h_all = Mat::Zero();
  for (int q = 0; q < m; ++q) add_row(h_all, q);
  const double scale = std::max(1.0, h_all.trace() / K);
  Vec lambda;
  SmallCholesky<K> start;
  if (cholesky && start.factor(K, [&](int i, int j) { return h_all(i, j); }))
    start.solve(b.data(), lambda.data());
  else
    lambda = (h_all + 1e-8 * scale * Mat::Identity()).ldlt().solve(b);

  // Each iteration works with the active neighbours (a_q . lambda > 0). Their rows need not span
  // all K moments (a lattice stencil has no xy products, say), so the generalized Hessian
  // H = sum_active a_q a_q^T / c_q may be singular: the residual's part in its null space is
  // handled by an exact step to the next breakpoint, the part in its range by Newton's method.
  // A Newton trial point is accepted when the dual rises enough (Armijo) or, near the solution
  // where that rise is below the rounding of the dual value, when the moment residual falls.
  // The moment residual at the trial point of the last dual_value call.
  auto residual_at_trial = [&]() {
    Vec r = b;
    for (int q = 0; q < m; ++q) {
      const double t = trial_dots[q];
      if (t > 0) r.noalias() -= (t * inv_c[q]) * a[q];
    }
    return r.cwiseAbs().maxCoeff();
  };
  bool dots_known = false;  // dots holds a_q . lambda already (from the accepted trial)
  auto ascend = [&](const Vec& step, double slope, double d0, double r0) {
    if (!(slope > 0)) return false;
    for (double alpha = 1; alpha > 1e-4; alpha *= 0.5) {
      const Vec trial = lambda + alpha * step;
      if (dual_value(trial) >= d0 + 1e-4 * alpha * slope || residual_at_trial() < 0.5 * r0) {
        lambda = trial;
        dots.swap(trial_dots);
        dots_known = true;
        return true;
      }
    }
    return false;
  };
  double residual = 0;
  int it = 0;
  bool ok = false;
  Eigen::SelfAdjointEigenSolver<Mat> eigen;
  for (; it < 80; ++it) {
    Vec r = b;
    Mat h = Mat::Zero();
    int active[K], k = 0;  // the first K active neighbours, and how many there are
    for (int q = 0; q < m; ++q) {
      const double t = dots_known ? dots[q] : (dots[q] = a[q].dot(lambda));
      if (t > 0) {
        f[q] = t * inv_c[q];
        r.noalias() -= f[q] * a[q];
        add_row(h, q);
        if (k < K) active[k] = q;
        ++k;
      } else {
        f[q] = 0;
      }
    }
    residual = r.cwiseAbs().maxCoeff();
    if (!std::isfinite(residual)) break;
    if (residual <= tol) {
      ok = true;
      break;
    }
    const double d0 = dual_at_dots(lambda);
    Vec step;
    VrmDirection direction = VrmDirection::unknown;
    if (cholesky) direction = cholesky_direction<K>(h, r, a, inv_c, active, k, null_floor, step);
    if (direction == VrmDirection::unknown) {
      direction = eigen_direction<K>(h, r, null_floor, eigen, step);
    }
    if (direction == VrmDirection::null_space) {
      // Moments the active neighbours cannot reach: along v, the residual's part outside the
      // active rows' range, the dual rises linearly until an inactive neighbour q with
      // a_q . v > 0 turns active. Step just past the first such point; if there is none, the
      // dual is unbounded and no non-negative solution exists.
      const Vec& v = step;
      double length = HUGE_VAL;
      for (int q = 0; q < m; ++q) {
        const double t = dots[q], rate = a[q].dot(v);
        if (t <= 0 && rate > 0) length = std::min(length, -t / rate);
      }
      if (length == HUGE_VAL) break;
      lambda += (length * (1 + 1e-9) + 1e-12 / v.norm()) * v;
      dots_known = false;
      continue;
    }
    const Vec& newton = step;
    // A Newton step with backtracking; damped steps if it does not ascend.
    bool stepped = ascend(newton, r.dot(newton), d0, residual);
    for (double damping = 1e-6; !stepped && damping <= 1e6; damping *= 1e2) {
      const Vec damped = (h + damping * scale * Mat::Identity()).ldlt().solve(r);
      stepped = ascend(damped, r.dot(damped), d0, residual);
    }
    if (!stepped) break;  // no ascent left: rounding level, or the dual is unbounded
  }
  if (residual_out) *residual_out = residual;
  if (iterations_out) *iterations_out = it;
  if (!ok && residual <= loose) ok = true;  // stalled at rounding level
  return ok;
}

}  // namespace vortex::detail
