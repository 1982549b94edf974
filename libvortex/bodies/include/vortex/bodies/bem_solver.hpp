#pragma once
// The boundary-element solve: the vortex sheet on a body at rest that makes the tangential
// velocity on its inner side vanish, for a free stream plus the velocity of vortex particles
// (docs/methods/bodies.md, sections 1 and 2).
//
//   BemSolver bem(surface, options);
//   const BemStats& s = bem.solve({1, 0, 0}, &particles, &particle_solver);
//   bem.gamma();  // two tangential components per panel
//
// GMRES (matrix-free, the treecode product, warm-started from the previous solution; the
// preconditioner is a coarse correction on a few large aggregates of panels followed by block
// Jacobi on the exact near blocks of clusters of nearby panels) is the default; the dense LU of the
// same operator is the oracle for small meshes.

#include <Eigen/Dense>
#include <array>
#include <memory>
#include <vector>

#include "vortex/bodies/bem_operator.hpp"
#include "vortex/bodies/gmres.hpp"

namespace vortex::bodies {

class BemPreconditioner;

class BemSolver {
 public:
  BemSolver(const Surface& surface, BemOptions options = {});
  ~BemSolver();

  const Surface& surface() const { return op_.surface(); }
  // As given, with the coarse aggregates resolved (kAutoAggregates: by where the solve runs).
  const BemOptions& options() const { return options_; }
  BemOperator& op() { return op_; }

  // Solves for the free stream and, when given, the particles' velocity at the panels computed
  // by `particle_solver` (the particles are the sources, the panels' points the targets).
  // `panel_velocity`, when given, is a velocity per panel (a panel average) added to theirs.
  // Throws std::runtime_error where GMRES misses its tolerance within max_iterations (naming the
  // residual reached); the sheet is then the last solve's.
  const BemStats& solve(const std::array<double, 3>& free_stream,
                        const ParticleSet* particles = nullptr, Solver* particle_solver = nullptr,
                        const std::vector<Vec3>* panel_velocity = nullptr);
  // The same with the particles in the caller's arrays (no copy is made of them).
  const BemStats& solve(const std::array<double, 3>& free_stream, SourcesView particles,
                        Solver& particle_solver, const std::vector<Vec3>* panel_velocity = nullptr);

  // Two coefficients per panel, along t1 and t2.
  const std::vector<double>& gamma() const { return gamma_; }
  // Replaces the solution (a warm start after a restart); size 2N.
  void set_gamma(const std::vector<double>& gamma);
  const BemStats& stats() const { return stats_; }
  // The wall time of the preconditioner's set-up (its coarse level takes 6 operator products an
  // aggregate); the operator's own is op().setup_seconds().
  double preconditioner_seconds() const { return preconditioner_seconds_; }
  // The coarse level's aggregates in use: at most those asked, each of at least 32 panels (0 with
  // dense LU or without a coarse level).
  int coarse_aggregates() const;
  // <u+ . n>_i of the last solve.
  const std::vector<double>& normal_velocity() const { return normal_velocity_; }

 private:
  const BemStats& solve_with(const std::array<double, 3>& free_stream, SourcesView particles,
                             Solver* particle_solver, const std::vector<Vec3>* panel_velocity);

  BemOptions options_;
  BemOperator op_;
  std::unique_ptr<BemPreconditioner> preconditioner_;  // GMRES's
  std::unique_ptr<Eigen::PartialPivLU<Eigen::MatrixXd>> dense_lu_;
  std::vector<double> gamma_;
  std::vector<double> normal_velocity_;
  VelocityField at_targets_;  // the particles' velocity at the far field's targets
  BemStats stats_;
  double preconditioner_seconds_ = 0;
};

}  // namespace vortex::bodies
