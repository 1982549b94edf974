// Coincident particles and boxes of zero extent: a particle at a target adds nothing, on every
// backend and with every core, so the treecode must give what the direct sum gives (never NaN),
// for a lone particle, for a target at a lone particle, and for leaves of coincident particles.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "support/backends.hpp"
#include "support/core_params.hpp"
#include "support/reference.hpp"
#include "vortex/interaction_lists.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

class Coincident : public ::testing::TestWithParam<testing::BackendCore> {
 protected:
  void SetUp() override { VORTEX_SKIP_WITHOUT(std::get<0>(GetParam())); }
  SolverOptions options(Method method) const {
    SolverOptions o;
    o.backend = std::get<0>(GetParam());
    o.core = std::get<1>(GetParam());
    o.method = method;
    o.tree.target_bucket = 8;
    o.tree.source_bucket = 8;
    return o;
  }
  // Relative L2 error allowed against the long-double direct sum: rounding for the direct sum
  // (float on CUDA), the expansion's error (theta^(p+1) at worst, far less on average) for the
  // treecode.
  double tolerance(Method method) const {
    if (method == Method::Tree) return 5e-4;
    return std::get<0>(GetParam()) == Backend::Cuda ? 1e-5 : 1e-12;
  }
};

void expect_all_finite(const VelocityField& f) {
  for (std::size_t i = 0; i < f.size(); ++i) {
    for (int a = 0; a < 3; ++a) ASSERT_TRUE(std::isfinite(f.u[a][i])) << "u" << a << " at " << i;
    for (int k = 0; k < 9; ++k) ASSERT_TRUE(std::isfinite(f.du[k][i])) << "du" << k << " at " << i;
  }
}

void expect_all_zero(const VelocityField& f) {
  for (std::size_t i = 0; i < f.size(); ++i) {
    for (int a = 0; a < 3; ++a) EXPECT_EQ(f.u[a][i], 0.0) << "u" << a << " at " << i;
    for (int k = 0; k < 9; ++k) EXPECT_EQ(f.du[k][i], 0.0) << "du" << k << " at " << i;
  }
}

TEST_P(Coincident, LoneParticleExertsNothingOnItself) {
  ParticleSet p;
  p.push_back(0.3, -0.2, 0.7, 1e-3, -2e-3, 5e-4, 0.05);
  for (Method method : {Method::Direct, Method::Tree}) {
    SCOPED_TRACE(to_string(method));
    Solver solver(options(method));
    expect_all_zero(solver.evaluate(p, true));
  }
}

TEST_P(Coincident, TargetAtALoneParticleGetsNothing) {
  ParticleSet p;
  p.push_back(0.3, -0.2, 0.7, 1e-3, -2e-3, 5e-4, 0.05);
  Points targets;
  for (int k = 0; k < 20; ++k) targets.push_back(0.3, -0.2, 0.7);
  Solver solver(options(Method::Tree));
  expect_all_zero(solver.evaluate(p, targets, true));
}

TEST_P(Coincident, LeavesOfCoincidentParticlesMatchTheDirectSum) {
  // 40 particles on one point (five whole leaves of zero extent) among 300 random ones, and a
  // second stack of 9 on another point: every target of a stack sees the rest of the cloud only.
  ParticleSet p = testing::random_cube(300, 17);
  const double sigma = p.sigma[0];
  for (int k = 0; k < 40; ++k) p.push_back(0.5, 0.5, 0.5, 1e-3 * (k % 3), 2e-4, -1e-4 * k, sigma);
  for (int k = 0; k < 9; ++k) p.push_back(0.1, 0.9, 0.2, -2e-4, 1e-3, 3e-4, sigma);
  const VelocityField ref =
      testing::reference_direct(p, PointsView(p), std::get<1>(GetParam()), true);
  for (Method method : {Method::Direct, Method::Tree}) {
    SCOPED_TRACE(to_string(method));
    Solver solver(options(method));
    const VelocityField f = solver.evaluate(p, true);
    expect_all_finite(f);
    EXPECT_LT(testing::relative_l2_velocity(f, ref), tolerance(method));
    EXPECT_LT(testing::relative_l2_gradient(f, ref), tolerance(method));
  }
}

// Targets a billionth of the cloud's size from particles, far below float's resolution of 6e-8:
// rounded to float they land on the particles, yet each must keep the particle's F [Gamma]x term
// (as large as the rest of the gradient there). The direct and tree sums in float.
TEST_P(Coincident, TargetsBelowFloatResolutionOfAParticleKeepItsTerm) {
  if (std::get<1>(GetParam()) == Core::Singular) GTEST_SKIP() << "1/r^3 has no value at r = 0";
  const ParticleSet p = testing::random_cube(300, 29);
  Points targets;
  for (std::size_t i = 0; i < p.size(); ++i)
    targets.push_back(p.x[i] + 3e-9, p.y[i] - 2e-9, p.z[i] + 1e-9);
  const VelocityField ref = testing::reference_direct(p, targets, std::get<1>(GetParam()), true);
  for (Method method : {Method::Direct, Method::Tree}) {
    SCOPED_TRACE(to_string(method));
    SolverOptions o = options(method);
    o.precision = Precision::Float;
    const VelocityField f = Solver(o).evaluate(p, targets, true);
    expect_all_finite(f);
    const double tol = method == Method::Tree ? 5e-4 : 1e-5;
    EXPECT_LT(testing::relative_l2_velocity(f, ref), tol);
    EXPECT_LT(testing::relative_l2_gradient(f, ref), tol);
  }
}

// A box is far only when it is strictly apart from the target box: a source box of zero extent at
// distance 0 passes radius <= theta * distance and must not be taken as far.
TEST(CoincidentBoxes, ZeroExtentBoxAtZeroDistanceIsNear) {
  KdNode box;
  for (int k = 0; k < 3; ++k) box.lo[k] = box.hi[k] = box.center[k] = 0.25;
  box.radius = 0;
  EXPECT_FALSE(is_far(box, box, AcceptanceCriteria{0.5, 0}));
  KdNode apart = box;
  apart.lo[0] = apart.hi[0] = apart.center[0] = 1.25;
  EXPECT_TRUE(is_far(box, apart, AcceptanceCriteria{0.5, 0}));
}

INSTANTIATE_TEST_SUITE_P(BackendsAndCores, Coincident,
                         ::testing::Combine(::testing::ValuesIn(testing::kBackends),
                                            ::testing::ValuesIn(testing::kAllCores)),
                         testing::BackendCoreName());

}  // namespace
}  // namespace vortex
