// The direct solver on both backends against an independent long-double sum; thread-count
// independence and the physical sign of the induced motion.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "support/backends.hpp"
#include "support/cases.hpp"
#include "support/core_params.hpp"
#include "support/reference.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

using testing::random_cube;
using testing::random_points;
using testing::reference_direct;
using testing::relative_l2_gradient;
using testing::relative_l2_velocity;

SolverOptions direct_cpu(Core core, int threads = 0) {
  SolverOptions o;
  o.core = core;
  o.method = Method::Direct;
  o.backend = Backend::Cpu;
  o.threads = threads;
  return o;
}

SolverOptions direct(Core core, Backend backend, Precision precision) {
  SolverOptions o = direct_cpu(core);
  o.backend = backend;
  o.precision = precision;
  return o;
}

// One body for both backends, each in every arithmetic it offers.
class DirectTest : public ::testing::TestWithParam<testing::BackendCore> {
 protected:
  void SetUp() override { VORTEX_SKIP_WITHOUT(std::get<0>(GetParam())); }
};

TEST_P(DirectTest, MatchesLongDoubleReference) {
  const auto [backend, core] = GetParam();
  // Not a multiple of any block size. A close pair exercises the small-rho series of the cores;
  // the singular kernel is left without it (see backend_case).
  ParticleSet p = testing::backend_case(core, 1001, 11);
  if (core != Core::Singular)
    p.push_back(p.x[0] + 1e-4, p.y[0], p.z[0], 1e-4, 2e-4, -1e-4, p.sigma[0]);
  const VelocityField ref = reference_direct(p, p, core, true);
  // Separate targets, including one exactly on a source particle.
  Points t = random_points(100, 12, -0.2, 1.2);
  t.push_back(p.x[3], p.y[3], p.z[3]);
  const VelocityField rt = reference_direct(p, t, core, true);
  for (const testing::Arithmetic& a : testing::arithmetics(backend)) {
    SCOPED_TRACE(to_string(a.precision));
    Solver solver(direct(core, backend, a.precision));
    const VelocityField f = solver.evaluate(p, true);
    EXPECT_EQ(f.stats.backend, to_string(backend));
    EXPECT_EQ(f.stats.precision, a.precision == Precision::Float ? "float" : "double");
    EXPECT_LT(relative_l2_velocity(f, ref), a.tolerance);
    EXPECT_LT(relative_l2_gradient(f, ref), a.tolerance);
    const VelocityField ft = solver.evaluate(p, t, true);
    ASSERT_EQ(ft.size(), t.size());
    EXPECT_LT(relative_l2_velocity(ft, rt), a.tolerance);
    EXPECT_LT(relative_l2_gradient(ft, rt), a.tolerance);
    // Velocity only: the velocity of the gradient run.
    const VelocityField v = solver.evaluate(p, t, false);
    EXPECT_FALSE(v.has_gradient);
    EXPECT_LT(relative_l2_velocity(v, rt), a.tolerance);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, DirectTest,
                         ::testing::Combine(::testing::ValuesIn(testing::kBackends),
                                            ::testing::ValuesIn(testing::kAllCores)),
                         testing::BackendCoreName());

// Float with double accumulation (CUDA) against the CPU's double sum, at a size where a plain float
// running sum over all sources would drift. (The CPU sums in double: nothing to check there.)
TEST(DirectLarge, FloatAccumulationLosesNoDigits) {
  VORTEX_SKIP_WITHOUT(Backend::Cuda);
  const ParticleSet p = random_cube(60000, 24);
  Points t;
  for (std::size_t i = 0; i < p.size(); i += 97) t.push_back(p.x[i], p.y[i], p.z[i]);
  const VelocityField ref = Solver(direct_cpu(Core::Exponential)).evaluate(p, t, true);
  const VelocityField f =
      Solver(direct(Core::Exponential, Backend::Cuda, Precision::Float)).evaluate(p, t, true);
  EXPECT_LE(relative_l2_velocity(f, ref), 1e-5);
  EXPECT_LE(relative_l2_gradient(f, ref), 1e-5);
}

// The CPU direct sum in float when float is asked for (it used to run in double whatever the
// precision): float's rounding, not double's, and the stats say so.
TEST(Direct, CpuFloatIsFloat) {
  const ParticleSet p = random_cube(1500, 31);
  const VelocityField ref = reference_direct(p, PointsView(p), Core::Exponential, true);
  const VelocityField d =
      Solver(direct(Core::Exponential, Backend::Cpu, Precision::Double)).evaluate(p, true);
  const VelocityField f =
      Solver(direct(Core::Exponential, Backend::Cpu, Precision::Float)).evaluate(p, true);
  EXPECT_EQ(d.stats.precision, "double");
  EXPECT_EQ(f.stats.precision, "float");
  EXPECT_LT(relative_l2_velocity(d, ref), 1e-12);
  EXPECT_LT(relative_l2_velocity(f, ref), 1e-5);
  EXPECT_LT(relative_l2_gradient(f, ref), 1e-5);
  EXPECT_GT(relative_l2_velocity(f, ref), 1e-9);  // float's rounding is there
}

TEST(Direct, SameResultForOneAndTwoThreads) {
  const ParticleSet p = random_cube(2000, 5);
  const VelocityField one = Solver(direct_cpu(Core::Exponential, 1)).evaluate(p, true);
  const VelocityField two = Solver(direct_cpu(Core::Exponential, 2)).evaluate(p, true);
  // Each target is summed by one thread in a fixed order, so the results are identical.
  for (int a = 0; a < 3; ++a) EXPECT_EQ(one.u[a], two.u[a]);
  for (int k = 0; k < 9; ++k) EXPECT_EQ(one.du[k], two.du[k]);
}

TEST(Direct, VelocityOnlyMatchesVelocityOfGradientRun) {
  const ParticleSet p = random_cube(500, 8);
  Solver solver(direct_cpu(Core::Gaussian));
  const VelocityField a = solver.evaluate(p, false), b = solver.evaluate(p, true);
  EXPECT_FALSE(a.has_gradient);
  EXPECT_LT(relative_l2_velocity(a, b), 1e-15);
}

TEST(Direct, RingMovesAlongItsImpulse) {
  // Vorticity counter-clockwise seen from +z: the ring must move toward +z, and its impulse
  // (1/2) sum x cross Gamma points to +z too.
  ParticleSet ring;
  const int n = 200;
  const double R = 1.0, sigma = 0.1;
  for (int k = 0; k < n; ++k) {
    const double phi = 2 * M_PI * k / n, ds = 2 * M_PI * R / n;
    ring.push_back(R * std::cos(phi), R * std::sin(phi), 0.0, -std::sin(phi) * ds,
                   std::cos(phi) * ds, 0.0, sigma);
  }
  double impulse_z = 0;
  for (int k = 0; k < n; ++k) impulse_z += 0.5 * (ring.x[k] * ring.gy[k] - ring.y[k] * ring.gx[k]);
  ASSERT_GT(impulse_z, 0);
  const VelocityField f = Solver(direct_cpu(Core::Exponential)).evaluate(ring, true);
  for (int k = 0; k < n; ++k) {
    EXPECT_GT(f.u[2][k], 0) << "particle " << k;
    EXPECT_NEAR(f.u[0][k] * ring.x[k] + f.u[1][k] * ring.y[k], 0.0, 1e-10);
  }
  // Center of the ring: the induced velocity points along +z as well.
  Points center;
  center.push_back(0, 0, 0);
  EXPECT_GT(Solver(direct_cpu(Core::Exponential)).evaluate(ring, center, false).u[2][0], 0);
}

TEST(Direct, RejectsBadInput) {
  Solver solver(direct_cpu(Core::Exponential));
  ParticleSet empty;
  EXPECT_THROW(solver.evaluate(empty, false), std::invalid_argument);
  ParticleSet p = random_cube(10, 1);
  p.sigma[4] = -1;
  EXPECT_THROW(solver.evaluate(p, false), std::invalid_argument);
  p.sigma[4] = 0.1;
  p.gy[2] = std::nan("");
  try {
    solver.evaluate(p, false);
    FAIL() << "NaN accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("gy[2]"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace vortex
