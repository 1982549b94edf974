// VRM fractions: the moment equations of one particle's neighbourhood and their non-negative
// (or signed) least-norm solutions.

#include "vortex/vrm.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "vrm_solve.hpp"

namespace vortex {

namespace {

using Vec10 = Eigen::Matrix<double, 10, 1>;
using Mat10 = Eigen::Matrix<double, 10, 10>;

// Moment row of a neighbour at offset d: 1, d, and the six second-order products.
Vec10 moment_row(const std::array<double, 3>& d) {
  Vec10 a;
  a << 1, d[0], d[1], d[2], d[0] * d[0], d[1] * d[1], d[2] * d[2], d[0] * d[1], d[0] * d[2],
      d[1] * d[2];
  return a;
}

Vec10 moment_target(const VrmMoments& m) {
  Vec10 b;
  b << 1, m.first[0], m.first[1], m.first[2], m.second[0], m.second[1], m.second[2], m.second[3],
      m.second[4], m.second[5];
  return b;
}

double weight(const std::array<double, 3>& d) {
  return 1.0 + d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}

// Makes sum f = 1 hold to rounding by adjusting the particle's own share.
void close_sum(std::vector<double>& f, int self) {
  double others = 0;
  for (std::size_t q = 0; q < f.size(); ++q)
    if (static_cast<int>(q) != self) others += f[q];
  f[self] = 1.0 - others;
}

}  // namespace

// Non-negative fractions of least weighted norm with K moment conditions sum_q f_q a_q = b (rows
// a_q, weights c_q), by the dual method described in vrm.hpp. Returns false when there is no
// non-negative solution.
template <int K>
static bool solve_nonnegative(const std::vector<Eigen::Matrix<double, K, 1>>& a,
                              const std::vector<double>& c, const Eigen::Matrix<double, K, 1>& b,
                              std::vector<double>& f, std::vector<double>& dots,
                              double* residual_out, int* iterations_out) {
  using Vec = Eigen::Matrix<double, K, 1>;
  using Mat = Eigen::Matrix<double, K, K>;
  const int m = static_cast<int>(a.size());
  f.assign(m, 0.0);
  dots.resize(m);
  if (m == 0) return false;
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
      v -= 0.5 * t * t / c[q];
    }
    return v;
  };
  auto dual_value = [&](const Vec& lambda) {
    double v = b.dot(lambda);
    for (int q = 0; q < m; ++q) {
      const double t = std::max(0.0, a[q].dot(lambda));
      v -= 0.5 * t * t / c[q];
    }
    return v;
  };

  // Start from the multipliers of the problem without the sign constraints.
  Mat h_all = Mat::Zero();
  for (int q = 0; q < m; ++q) h_all.noalias() += a[q] * a[q].transpose() / c[q];
  const double scale = std::max(1.0, h_all.trace() / K);
  Vec lambda = (h_all + 1e-8 * scale * Mat::Identity()).ldlt().solve(b);

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
      if (t > 0) r.noalias() -= (t / c[q]) * a[q];
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
        f[q] = t / c[q];
        r.noalias() -= f[q] * a[q];
        // The lower triangle: the eigen solver and LDLT read no other.
        for (int j = 0; j < K; ++j)
          for (int i = j; i < K; ++i) h(i, j) += a[q][i] * a[q][j] / c[q];
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
    eigen.compute(h);
    const Vec& mu = eigen.eigenvalues();
    const double cut = 1e-12 * std::max(mu.maxCoeff(), 1e-300);
    const Vec coef = eigen.eigenvectors().transpose() * r;
    Vec range_coef = Vec::Zero(), null_coef = Vec::Zero();
    for (int k = 0; k < K; ++k) (mu[k] > cut ? range_coef[k] : null_coef[k]) = coef[k];
    if (null_coef.norm() > 1e-13 * b.norm()) {
      // Moments the active neighbours cannot reach: along v, the residual's part outside the
      // active rows' range, the dual rises linearly until an inactive neighbour q with
      // a_q . v > 0 turns active. Step just past the first such point; if there is none, the dual
      // is unbounded and no non-negative solution exists.
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
    // Within the range: a Newton step with backtracking; damped steps if it does not ascend.
    for (int k = 0; k < K; ++k) range_coef[k] = mu[k] > cut ? range_coef[k] / mu[k] : 0.0;
    const Vec newton = eigen.eigenvectors() * range_coef;
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

VrmMoments free_space_moments(double second_moment) {
  VrmMoments m;
  m.second = {second_moment, second_moment, second_moment, 0, 0, 0};
  return m;
}

bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          double second_moment, std::vector<double>& f, double* residual_out,
                          int* iterations_out) {
  return solve_redistribution(offsets, self, free_space_moments(second_moment), f, residual_out,
                              iterations_out);
}

bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          const VrmMoments& target, std::vector<double>& f, double* residual_out,
                          int* iterations_out) {
  detail::VrmSolveScratch scratch;
  return detail::solve_redistribution(offsets, self, target, f, scratch, residual_out,
                                      iterations_out);
}

bool detail::solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                                  const VrmMoments& target, std::vector<double>& f,
                                  VrmSolveScratch& scratch, double* residual_out,
                                  int* iterations_out) {
  const int m = static_cast<int>(offsets.size());
  f.assign(m, 0.0);
  if (m == 0 || self < 0 || self >= m) return false;
  std::vector<Vec10>& a = scratch.rows;
  std::vector<double>& c = scratch.weights;
  a.resize(m);
  c.resize(m);
  for (int q = 0; q < m; ++q) {
    a[q] = moment_row(offsets[q]);
    c[q] = weight(offsets[q]);
  }
  if (!solve_nonnegative<10>(a, c, moment_target(target), f, scratch.dots, residual_out,
                             iterations_out))
    return false;
  close_sum(f, self);
  return f[self] >= -1e-12;
}

bool solve_first_moment_fractions(const std::vector<std::array<double, 3>>& offsets,
                                  std::vector<double>& f) {
  const int m = static_cast<int>(offsets.size());
  std::vector<Eigen::Vector4d> a(m);
  std::vector<double> c(m);
  for (int q = 0; q < m; ++q) {
    a[q] = Eigen::Vector4d(1, offsets[q][0], offsets[q][1], offsets[q][2]);
    c[q] = weight(offsets[q]);
  }
  std::vector<double> dots;
  if (!solve_nonnegative<4>(a, c, Eigen::Vector4d(1, 0, 0, 0), f, dots, nullptr, nullptr))
    return false;
  // sum f = 1 to rounding: the largest share absorbs the difference.
  const auto largest = std::max_element(f.begin(), f.end()) - f.begin();
  double others = 0;
  for (int q = 0; q < m; ++q)
    if (q != largest) others += f[q];
  f[largest] = 1.0 - others;
  return true;
}

bool solve_redistribution_signed(const std::vector<std::array<double, 3>>& offsets, int self,
                                 double second_moment, std::vector<double>& f) {
  return solve_redistribution_signed(offsets, self, free_space_moments(second_moment), f);
}

bool solve_redistribution_signed(const std::vector<std::array<double, 3>>& offsets, int self,
                                 const VrmMoments& target, std::vector<double>& f) {
  const int m = static_cast<int>(offsets.size());
  f.assign(m, 0.0);
  if (m == 0 || self < 0 || self >= m) return false;
  std::vector<Vec10> a(m);
  Mat10 h = Mat10::Zero();
  for (int q = 0; q < m; ++q) {
    a[q] = moment_row(offsets[q]);
    h.noalias() += a[q] * a[q].transpose() / weight(offsets[q]);
  }
  const Vec10 b = moment_target(target);
  const Eigen::FullPivLU<Mat10> lu(h);
  if (lu.rank() < 10) return false;
  const Vec10 lambda = lu.solve(b);
  for (int q = 0; q < m; ++q) f[q] = a[q].dot(lambda) / weight(offsets[q]);
  close_sum(f, self);
  return true;
}

}  // namespace vortex
