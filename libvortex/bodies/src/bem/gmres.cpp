#include "vortex/bodies/gmres.hpp"

#include <cmath>
#include <vector>

namespace vortex::bodies {

namespace {

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
  std::vector<Eigen::VectorXd> v(1, r0 / beta), z;
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
    z.push_back(zk);
    apply(zk, w);
    for (int j = 0; j <= k; ++j) {  // modified Gram-Schmidt
      h(j, k) = v[j].dot(w);
      w -= h(j, k) * v[j];
    }
    const double next = w.norm();  // kept: the rotation below zeroes h(k + 1, k)
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
    v.push_back(w / next);
  }
  const Eigen::VectorXd y = h.topLeftCorner(k, k).triangularView<Eigen::Upper>().solve(g.head(k));
  for (int j = 0; j < k; ++j) x += y(j) * z[j];
  return k;
}

}  // namespace

GmresResult gmres(const LinearMap& apply, const LinearMap& precondition, const Eigen::VectorXd& b,
                  Eigen::VectorXd& x, const GmresOptions& o) {
  GmresResult result;
  if (x.size() != b.size()) x = Eigen::VectorXd::Zero(b.size());
  const double bnorm = b.norm();
  if (bnorm == 0) {
    x.setZero();
    result.converged = true;
    return result;
  }
  Eigen::VectorXd ax;
  while (true) {
    apply(x, ax);
    const Eigen::VectorXd r = b - ax;
    const double beta = r.norm();
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
