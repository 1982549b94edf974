#include "vortex/bodies/gmres.hpp"

#include <cmath>
#include <vector>

#include "vortex/fixed_pieces.hpp"

namespace vortex::bodies {

namespace {

// The Krylov vectors' sums and updates on all threads, in fixed pieces (fixed_pieces.hpp): the
// same result on any number of threads. At 46,080 panels a vector holds 92,160 values and a cycle
// of ten iterations some hundred passes over such vectors.
constexpr Eigen::Index kParallelLength = 16384;

double dot(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return sum_in_pieces<double>(static_cast<std::size_t>(a.size()),
                               [&](std::size_t begin, std::size_t end) {
                                 const auto lo = static_cast<Eigen::Index>(begin);
                                 const auto len = static_cast<Eigen::Index>(end) - lo;
                                 return a.segment(lo, len).dot(b.segment(lo, len));
                               });
}

double norm(const Eigen::VectorXd& a) {
  return std::sqrt(dot(a, a));
}

// y += c x.
void add_scaled(double c, const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  const auto n = static_cast<std::ptrdiff_t>(y.size());
#pragma omp parallel for schedule(static) if (n >= kParallelLength)
  for (std::ptrdiff_t i = 0; i < n; ++i) y[i] += c * x[i];
}

// y = c x.
void set_scaled(double c, const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  const auto n = static_cast<std::ptrdiff_t>(x.size());
  y.resize(x.size());
#pragma omp parallel for schedule(static) if (n >= kParallelLength)
  for (std::ptrdiff_t i = 0; i < n; ++i) y[i] = c * x[i];
}

struct Givens {
  double c = 1, s = 0;
  void apply(double& a, double& b) const {
    const double t = c * a + s * b;
    b = -s * a + c * b;
    a = t;
  }
};

Givens make_givens(double a, double b) {
  const double r = std::hypot(a, b);
  if (r == 0) return {};
  return {a / r, b / r};
}

// One restart cycle from x; returns the iterations used and updates x and the residual estimate.
int gmres_cycle(const LinearMap& apply, const LinearMap& precondition, const Eigen::VectorXd& r0,
                double beta, double target, int max_steps, Eigen::VectorXd& x, double& estimate) {
  const int m = max_steps;
  std::vector<Eigen::VectorXd> v(1), z;
  set_scaled(1 / beta, r0, v[0]);
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(m + 1, m);
  std::vector<Givens> rot(m);
  Eigen::VectorXd g = Eigen::VectorXd::Zero(m + 1);
  g(0) = beta;
  Eigen::VectorXd w, zk;
  int k = 0;
  for (; k < m; ++k) {
    if (precondition) {
      precondition(v[k], zk);
    } else {
      zk = v[k];
    }
    apply(zk, w);
    z.push_back(std::move(zk));
    for (int j = 0; j <= k; ++j) {  // modified Gram-Schmidt
      h(j, k) = dot(v[j], w);
      add_scaled(-h(j, k), v[j], w);
    }
    const double next = norm(w);  // kept: the rotation below zeroes h(k + 1, k)
    h(k + 1, k) = next;
    for (int j = 0; j < k; ++j) rot[j].apply(h(j, k), h(j + 1, k));
    rot[k] = make_givens(h(k, k), h(k + 1, k));
    rot[k].apply(h(k, k), h(k + 1, k));
    rot[k].apply(g(k), g(k + 1));
    estimate = std::abs(g(k + 1));
    if (estimate <= target || next == 0) {
      ++k;
      break;
    }
    v.emplace_back();
    set_scaled(1 / next, w, v.back());
  }
  const Eigen::VectorXd y = h.topLeftCorner(k, k).triangularView<Eigen::Upper>().solve(g.head(k));
  for (int j = 0; j < k; ++j) add_scaled(y(j), z[j], x);
  return k;
}

}  // namespace

GmresResult gmres(const LinearMap& apply, const LinearMap& precondition, const Eigen::VectorXd& b,
                  Eigen::VectorXd& x, const GmresOptions& o) {
  GmresResult result;
  if (x.size() != b.size()) x = Eigen::VectorXd::Zero(b.size());
  const double bnorm = norm(b);
  if (bnorm == 0) {
    x.setZero();
    result.converged = true;
    return result;
  }
  Eigen::VectorXd ax;
  while (true) {
    apply(x, ax);
    Eigen::VectorXd r = b;
    add_scaled(-1, ax, r);
    const double beta = norm(r);
    result.residual = beta / bnorm;
    if (result.residual <= o.tolerance) {
      result.converged = true;
      return result;
    }
    if (result.iterations >= o.max_iterations) return result;
    const int steps = std::min(o.restart, o.max_iterations - result.iterations);
    double estimate = 0;
    result.iterations +=
        gmres_cycle(apply, precondition, r, beta, o.tolerance * bnorm, steps, x, estimate);
  }
}

}  // namespace vortex::bodies
