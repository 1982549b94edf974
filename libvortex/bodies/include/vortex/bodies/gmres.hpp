#pragma once
// Restarted GMRES with right preconditioning (Saad & Schultz 1986): solves A x = b for an operator
// given only by its product, starting from the x passed in (a warm start).

#include <Eigen/Dense>
#include <functional>

namespace vortex::bodies {

using LinearMap = std::function<void(const Eigen::VectorXd& in, Eigen::VectorXd& out)>;

struct GmresOptions {
  double tolerance = 1e-8;  // stop when |b - A x| <= tolerance * |b|
  int restart = 60;         // Krylov dimension between restarts
  int max_iterations = 500;
};

struct GmresResult {
  int iterations = 0;
  double residual = 0;  // |b - A x| / |b| of the returned x (recomputed, not estimated)
  bool converged = false;
};

// `precondition` applies M^-1 (identity when empty).
GmresResult gmres(const LinearMap& apply, const LinearMap& precondition, const Eigen::VectorXd& b,
                  Eigen::VectorXd& x, const GmresOptions& options);

}  // namespace vortex::bodies
