#include "vortex/bodies/bem_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

#include "bem/bem_preconditioner.hpp"
#include "solver/text_excerpt.hpp"
#include "vortex/bodies/sheet.hpp"

namespace vortex::bodies {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

BemSolver::BemSolver(const Surface& surface, BemOptions options)
    : options_(options), op_(surface, options_) {
  gamma_.assign(2 * surface.size(), 0.0);
  normal_velocity_.assign(surface.size(), 0.0);
  if (options_.method == BemMethod::Dense) {
    const Eigen::MatrixXd rows = op_.dense_rows();
    Eigen::MatrixXd a(2 * surface.size(), 2 * surface.size());
    for (std::size_t i = 0; i < surface.size(); ++i) {
      a.row(2 * i) = rows.row(3 * i);
      a.row(2 * i + 1) = rows.row(3 * i + 1);
    }
    dense_lu_ = std::make_unique<Eigen::PartialPivLU<Eigen::MatrixXd>>(a);
  } else {
    const auto start = std::chrono::steady_clock::now();
    if (options_.coarse_aggregates == kAutoAggregates)
      options_.coarse_aggregates = op_.on_device() ? 64 : 8;
    preconditioner_ =
        std::make_unique<BemPreconditioner>(op_, options_.cluster_size, options_.coarse_aggregates);
    preconditioner_seconds_ = seconds_since(start);
  }
}

BemSolver::~BemSolver() = default;

int BemSolver::coarse_aggregates() const {
  return preconditioner_ ? preconditioner_->view().aggregates : 0;
}

void BemSolver::set_gamma(const std::vector<double>& gamma) {
  if (gamma.size() != gamma_.size())
    throw std::invalid_argument("BemSolver::set_gamma: expected " + std::to_string(gamma_.size()) +
                                " coefficients, got " + std::to_string(gamma.size()));
  gamma_ = gamma;
}

const BemStats& BemSolver::solve(const std::array<double, 3>& free_stream,
                                 const ParticleSet* particles, Solver* particle_solver,
                                 const std::vector<Vec3>* panel_velocity) {
  return solve_with(free_stream, particles ? SourcesView(*particles) : SourcesView(),
                    particle_solver, panel_velocity);
}

const BemStats& BemSolver::solve(const std::array<double, 3>& free_stream, SourcesView particles,
                                 Solver& particle_solver, const std::vector<Vec3>* panel_velocity) {
  return solve_with(free_stream, particles, &particle_solver, panel_velocity);
}

const BemStats& BemSolver::solve_with(const std::array<double, 3>& free_stream,
                                      SourcesView particles, Solver* particle_solver,
                                      const std::vector<Vec3>* panel_velocity) {
  const auto start = std::chrono::steady_clock::now();
  stats_ = BemStats{};
  op_.reset_totals();
  if (particles.size() > 0) {
    if (!particle_solver)
      throw std::invalid_argument("BemSolver::solve: particles given without a solver");
    particle_solver->evaluate(particles, op_.targets(), false, at_targets_);
  } else {
    at_targets_.resize(op_.targets().size(), false);
  }
  stats_.rhs_seconds = seconds_since(start);
  Eigen::VectorXd given = op_.average_rows(at_targets_, free_stream);
  if (panel_velocity) op_.add_rows(*panel_velocity, given);
  const std::size_t n = op_.size();
  Eigen::VectorXd b(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    b(2 * i) = -given(3 * i);
    b(2 * i + 1) = -given(3 * i + 1);
  }
  Eigen::VectorXd x = options_.warm_start
                          ? Eigen::Map<const Eigen::VectorXd>(gamma_.data(), gamma_.size()).eval()
                          : Eigen::VectorXd::Zero(2 * n);
  if (options_.method == BemMethod::Dense) {
    x = dense_lu_->solve(b);
    stats_.converged = true;
  } else {
    const GmresResult r = gmres(
        [&](const Eigen::VectorXd& in, Eigen::VectorXd& out) { op_.apply_tangential(in, out); },
        [&](const Eigen::VectorXd& in, Eigen::VectorXd& out) {
          const auto t = std::chrono::steady_clock::now();
          preconditioner_->apply(in, out);
          stats_.seconds_precondition += seconds_since(t);
        },
        b, x, {options_.tolerance, options_.restart, options_.max_iterations});
    stats_.iterations = r.iterations;
    stats_.converged = r.converged;
    // A sheet that misses its tolerance is a wrong sheet: the solver keeps the last one.
    if (!r.converged)
      throw std::runtime_error(
          "BEM: GMRES did not reach the relative residual " +
          vortex::detail::number_text(options_.tolerance) + " in " + std::to_string(r.iterations) +
          " iterations (restart " + std::to_string(options_.restart) + "): it stopped at " +
          vortex::detail::number_text(r.residual) +
          "; allow more iterations (BemOptions::max_iterations), loosen the tolerance "
          "(--bem-tolerance) or check the mesh" +
          (op_.far_precision() == Precision::Float
               ? "; the far-field product runs in float, whose rounding (about 5e-7 of its rows) "
                 "may keep the residual above the tolerance: ask for double (--bem-precision)"
               : ""));
  }
  gamma_.assign(x.data(), x.data() + x.size());
  // Residual and outer normal velocity from one more product (u+ . n = u- . n).
  Eigen::VectorXd rows;
  op_.apply(x, rows);
  double res2 = 0;
  for (std::size_t i = 0; i < n; ++i) {
    for (int r = 0; r < 2; ++r) res2 += std::pow(rows(3 * i + r) - b(2 * i + r), 2);
    normal_velocity_[i] = rows(3 * i + 2) + given(3 * i + 2);
    stats_.max_normal_velocity =
        std::max(stats_.max_normal_velocity, std::abs(normal_velocity_[i]));
    stats_.mean_normal_velocity += std::abs(normal_velocity_[i]) / static_cast<double>(n);
  }
  stats_.residual = b.norm() > 0 ? std::sqrt(res2) / b.norm() : std::sqrt(res2);
  stats_.sheet_vorticity = sheet_total_vorticity(op_.surface(), gamma_);
  const BemOperator::Totals& t = op_.totals();
  stats_.products = t.products;
  stats_.repeated_products = t.repeated;
  stats_.seconds_far = t.seconds_far;
  stats_.seconds_near = t.seconds_near;
  stats_.treecode = t.treecode;
  stats_.seconds = seconds_since(start);
  return stats_;
}

}  // namespace vortex::bodies
