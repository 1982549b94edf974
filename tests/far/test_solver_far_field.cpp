// The CPU far field's paths through the whole Solver: local expansions forced, M2P forced and the
// measured choice all reach the double direct sum within the error of M2P at the same order and
// theta, and report what they ran.

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "support/reference.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

using testing::mean_relative_gradient;
using testing::mean_relative_velocity;
using testing::relative_l2_gradient;
using testing::relative_l2_velocity;

SolverOptions tree_cpu(FarField far_field, Precision precision, int order, double theta) {
  SolverOptions o;
  o.backend = Backend::Cpu;
  o.precision = precision;
  o.far_field = far_field;
  o.tree.order = order;
  o.tree.theta = theta;
  o.tree.kappa = default_kappa(o.core);
  o.tree.target_bucket = 32;
  o.tree.source_bucket = 32;
  return o;
}

// The double CPU direct sum: the reference.
VelocityField direct_sum(const ParticleSet& p) {
  SolverOptions direct;
  direct.backend = Backend::Cpu;
  direct.method = Method::Direct;
  return Solver(direct).evaluate(p, true);
}

TEST(SolverFarField, LocalExpansionsAsAccurateAsM2P) {
  const ParticleSet p = testing::random_cube(8000, 51, 0.002);
  const VelocityField ref = direct_sum(p);
  const std::pair<Precision, int> runs[] = {
      {Precision::Double, 5}, {Precision::Double, 9}, {Precision::Float, 7}};
  for (const auto& [precision, order] : runs) {
    SCOPED_TRACE(to_string(precision) + ", p = " + std::to_string(order));
    const double theta = 0.5;
    const VelocityField m2p =
        Solver(tree_cpu(FarField::M2P, precision, order, theta)).evaluate(p, true);
    const VelocityField local =
        Solver(tree_cpu(FarField::Local, precision, order, theta)).evaluate(p, true);
    EXPECT_EQ(m2p.stats.far_field, "m2p");
    EXPECT_EQ(m2p.stats.m2l_translations, 0u);
    ASSERT_EQ(local.stats.far_field, "local");
    EXPECT_GT(local.stats.m2l_translations, 0u);
    EXPECT_GT(local.stats.l2l_translations, 0u);
    EXPECT_GT(local.stats.l2p_targets, 0u);
    EXPECT_LT(local.stats.multipole_interactions, m2p.stats.multipole_interactions);
    EXPECT_EQ(local.stats.pair_interactions, m2p.stats.pair_interactions);
    // The same truncation order: the errors of the two paths are alike (the local expansions'
    // ((r_s + r_T)/d)^(p+1) against M2P's (r_s/d)^(p+1) on other pairs), and both within the
    // bound of test_solver_tree's TreeVsDirect.
    const double bound_u = std::pow(theta, order + 1) / (1 - theta);
    const double bound_du = std::pow(theta, order) / (1 - theta);
    EXPECT_LT(mean_relative_velocity(local, ref), 2 * mean_relative_velocity(m2p, ref) + 1e-7);
    EXPECT_LT(mean_relative_gradient(local, ref), 2 * mean_relative_gradient(m2p, ref) + 1e-7);
    EXPECT_LT(relative_l2_velocity(local, ref), bound_u);
    EXPECT_LT(relative_l2_gradient(local, ref), bound_du);
    EXPECT_LT(mean_relative_velocity(local, ref), bound_u);
    EXPECT_LT(mean_relative_gradient(local, ref), bound_du);
    // The velocity alone from the same lists.
    const VelocityField u =
        Solver(tree_cpu(FarField::Local, precision, order, theta)).evaluate(p, false);
    EXPECT_LT(relative_l2_velocity(u, local), 1e-6);
    // The same sums on one thread and on three (the M2L of the top levels runs in fixed chunks
    // over the threads).
    for (int threads : {1, 3}) {
      SolverOptions o = tree_cpu(FarField::Local, precision, order, theta);
      o.threads = threads;
      const VelocityField t = Solver(o).evaluate(p, true);
      EXPECT_EQ(t.stats.m2l_translations, local.stats.m2l_translations);
      EXPECT_EQ(relative_l2_velocity(t, local), 0.0) << threads << " threads";
      EXPECT_EQ(relative_l2_gradient(t, local), 0.0) << threads << " threads";
    }
  }
}

// The default far field is Auto: the tolerance's order and arithmetic set its costs, and where
// local expansions pay (a cube of 1e5 at 2e-4 has nodes of 6000 targets) they are taken, within
// the tolerance.
TEST(SolverFarField, DefaultTakesLocalExpansionsWhereTheyPay) {
  EXPECT_EQ(SolverOptions{}.far_field, FarField::Auto);
  const ParticleSet p = testing::random_cube(100000, 53);
  SolverOptions o;
  o.backend = Backend::Cpu;
  o.tolerance = 2e-4;
  const VelocityField f = Solver(o).evaluate(p, true);
  EXPECT_EQ(f.stats.far_field, "local");
  EXPECT_GT(f.stats.m2l_translations, 0u);
  EXPECT_GT(f.stats.far_field_costs.m2l, 0);
  // Against the double direct sum at every 100th particle.
  Points sample;
  VelocityField at_sample;
  at_sample.resize(p.size() / 100, true);
  for (std::size_t i = 0, j = 0; j < at_sample.size(); i += 100, ++j) {
    sample.push_back(p.x[i], p.y[i], p.z[i]);
    for (int c = 0; c < 3; ++c) at_sample.u[c][j] = f.u[c][i];
    for (int c = 0; c < 9; ++c) at_sample.du[c][j] = f.du[c][i];
  }
  SolverOptions direct;
  direct.backend = Backend::Cpu;
  direct.method = Method::Direct;
  const VelocityField ref = Solver(direct).evaluate(p, sample, true);
  EXPECT_LE(mean_relative_velocity(at_sample, ref), 2e-4);
  EXPECT_LE(mean_relative_gradient(at_sample, ref), 2e-4);
}

// Auto chooses by the cost model, the same way in every run, and either way stays as accurate as
// M2P.
TEST(SolverFarField, AutoIsAsAccurateAsM2P) {
  const ParticleSet p = testing::random_cube(8000, 52, 0.002);
  const VelocityField ref = direct_sum(p);
  const VelocityField m2p =
      Solver(tree_cpu(FarField::M2P, Precision::Double, 7, 0.5)).evaluate(p, true);
  const VelocityField autos =
      Solver(tree_cpu(FarField::Auto, Precision::Double, 7, 0.5)).evaluate(p, true);
  EXPECT_TRUE(autos.stats.far_field == "m2p" || autos.stats.far_field == "local");
  EXPECT_EQ(autos.stats.far_field == "local", autos.stats.m2l_translations > 0);
  EXPECT_LT(mean_relative_velocity(autos, ref), 2 * mean_relative_velocity(m2p, ref) + 1e-9);
  EXPECT_LT(mean_relative_gradient(autos, ref), 2 * mean_relative_gradient(m2p, ref) + 1e-9);
  const VelocityField again =
      Solver(tree_cpu(FarField::Auto, Precision::Double, 7, 0.5)).evaluate(p, true);
  EXPECT_EQ(again.stats.m2l_translations, autos.stats.m2l_translations);
  EXPECT_EQ(again.stats.multipole_interactions, autos.stats.multipole_interactions);
  EXPECT_EQ(relative_l2_velocity(again, autos), 0.0);
}

}  // namespace
}  // namespace vortex
