#pragma once
// The dual method of vrm.hpp for non-negative fractions of least weighted norm with K moment
// conditions sum_q f_q a_q = b: f_q = max(0, a_q . lambda) / c_q, Newton steps on the multipliers
// lambda. Fixed-size matrices and the caller's vectors: a solve allocates nothing once they have
// grown.

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <vector>

namespace vortex::detail {

// How the Newton direction is found. `cholesky_first`: by a Cholesky factorization where the
// active rows' Hessian is provably well conditioned, by its eigendecomposition elsewhere.
// `eigen_only`: by the eigendecomposition at every step (the reference for the first).
enum class VrmNewton { cholesky_first, eigen_only };

// x = H^-1 r by the Cholesky factors of H (its lower triangle), when H is positive definite with
// trace(H) trace(H^-1) < 1e10. That product bounds the condition number from above, so all of H's
// eigenvalues then lie above the eigen path's cut (1e-12 of the largest): its pseudo-inverse would
// be this inverse. False (x untouched) otherwise.
template <int K>
bool cholesky_solve(const Eigen::Matrix<double, K, K>& h, const Eigen::Matrix<double, K, 1>& r,
                    Eigen::Matrix<double, K, 1>& x) {
  using Mat = Eigen::Matrix<double, K, K>;
  const Eigen::LLT<Mat, Eigen::Lower> llt(h);
  if (llt.info() != Eigen::Success) return false;
  Mat inverse_l = Mat::Identity();
  llt.matrixL().solveInPlace(inverse_l);
  // trace(H^-1) = |L^-1|_F^2 >= 1 / mu_min and trace(H) >= mu_max.
  if (!(h.trace() * inverse_l.squaredNorm() < 1e10)) return false;
  x.noalias() = inverse_l.transpose() * (inverse_l * r);
  return true;
}

// Rows a_q, inverse weights 1 / c_q; fills f (and the dots a_q . lambda). Returns false when there
// is no non-negative solution.
template <int K>
bool solve_nonnegative(const std::vector<Eigen::Matrix<double, K, 1>>& a,
                       const std::vector<double>& inv_c, const Eigen::Matrix<double, K, 1>& b,
                       std::vector<double>& f, std::vector<double>& dots, VrmNewton newton_by,
                       double* residual_out, int* iterations_out) {
  using Vec = Eigen::Matrix<double, K, 1>;
  using Mat = Eigen::Matrix<double, K, K>;
  const int m = static_cast<int>(a.size());
  f.assign(m, 0.0);
  dots.resize(m);
  if (m == 0) return false;
  const bool cholesky = newton_by == VrmNewton::cholesky_first;
  // Converged residuals sit at 1e-16..1e-12 (rounding of the K x K solves); a stalled line
  // search below `loose` is rounding too, not infeasibility.
  const double size = std::max(1.0, b.cwiseAbs().maxCoeff());
  const double tol = 1e-12 * size;
  const double loose = 1e-9 * size;

  // The dual at the current multipliers, from their dots a_q . lambda.
  auto dual_at_dots = [&](const Vec& lambda) {
    double v = b.dot(lambda);
    for (int q = 0; q < m; ++q) {
      const double t = std::max(0.0, dots[q]);
      v -= 0.5 * t * t * inv_c[q];
    }
    return v;
  };
  auto dual_value = [&](const Vec& lambda) {
    double v = b.dot(lambda);
    for (int q = 0; q < m; ++q) {
      const double t = std::max(0.0, a[q].dot(lambda));
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
  if (!(cholesky && cholesky_solve<K>(h_all, b, lambda)))
    lambda = (h_all + 1e-8 * scale * Mat::Identity()).ldlt().solve(b);

  // Each iteration works with the active neighbours (a_q . lambda > 0). Their rows need not span
  // all K moments (a lattice stencil has no xy products, say), so the generalized Hessian
  // H = sum_active a_q a_q^T / c_q may be singular: the residual's part in its null space is
  // handled by an exact step to the next breakpoint, the part in its range by Newton's method.
  // A Newton trial point is accepted when the dual rises enough (Armijo) or, near the solution
  // where that rise is below the rounding of the dual value, when the moment residual falls.
  auto residual_at = [&](const Vec& l) {
    Vec r = b;
    for (int q = 0; q < m; ++q) {
      const double t = a[q].dot(l);
      if (t > 0) r.noalias() -= (t * inv_c[q]) * a[q];
    }
    return r.cwiseAbs().maxCoeff();
  };
  auto ascend = [&](const Vec& step, double slope, double d0, double r0) {
    if (!(slope > 0)) return false;
    for (double alpha = 1; alpha > 1e-4; alpha *= 0.5) {
      const Vec trial = lambda + alpha * step;
      if (dual_value(trial) >= d0 + 1e-4 * alpha * slope || residual_at(trial) < 0.5 * r0) {
        lambda = trial;
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
    for (int q = 0; q < m; ++q) {
      const double t = dots[q] = a[q].dot(lambda);
      if (t > 0) {
        f[q] = t * inv_c[q];
        r.noalias() -= f[q] * a[q];
        add_row(h, q);
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
    Vec newton;
    if (!(cholesky && cholesky_solve<K>(h, r, newton))) {
      eigen.compute(h);
      const Vec& mu = eigen.eigenvalues();
      const double cut = 1e-12 * std::max(mu.maxCoeff(), 1e-300);
      const Vec coef = eigen.eigenvectors().transpose() * r;
      Vec range_coef = Vec::Zero(), null_coef = Vec::Zero();
      for (int k = 0; k < K; ++k) (mu[k] > cut ? range_coef[k] : null_coef[k]) = coef[k];
      if (null_coef.norm() > 1e-13 * b.norm()) {
        // Moments the active neighbours cannot reach: along v, the residual's part outside the
        // active rows' range, the dual rises linearly until an inactive neighbour q with
        // a_q . v > 0 turns active. Step just past the first such point; if there is none, the
        // dual is unbounded and no non-negative solution exists.
        const Vec v = eigen.eigenvectors() * null_coef;
        double step = HUGE_VAL;
        for (int q = 0; q < m; ++q) {
          const double t = dots[q], rate = a[q].dot(v);
          if (t <= 0 && rate > 0) step = std::min(step, -t / rate);
        }
        if (step == HUGE_VAL) break;
        lambda += (step * (1 + 1e-9) + 1e-12 / v.norm()) * v;
        continue;
      }
      for (int k = 0; k < K; ++k) range_coef[k] = mu[k] > cut ? range_coef[k] / mu[k] : 0.0;
      newton = eigen.eigenvectors() * range_coef;
    }
    // A Newton step with backtracking; damped steps if it does not ascend.
    bool stepped = ascend(newton, r.dot(newton), d0, residual);
    for (double damping = 1e-6; !stepped && damping <= 1e6; damping *= 1e2) {
      const Vec step = (h + damping * scale * Mat::Identity()).ldlt().solve(r);
      stepped = ascend(step, r.dot(step), d0, residual);
    }
    if (!stepped) break;  // no ascent left: rounding level, or the dual is unbounded
  }
  if (residual_out) *residual_out = residual;
  if (iterations_out) *iterations_out = it;
  if (!ok && residual <= loose) ok = true;  // stalled at rounding level
  return ok;
}

}  // namespace vortex::detail
