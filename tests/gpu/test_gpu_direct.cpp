// The CUDA direct sum against the CPU double direct sum, for every core, in float (a tile in float,
// tiles in double) and in double; targets apart from the sources; velocity only.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gpu_cases.hpp"
#include "support/core_params.hpp"
#include "support/reference.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

using testing::random_cube;
using testing::random_points;
using testing::relative_l2_gradient;
using testing::relative_l2_velocity;

SolverOptions direct(Core core, Backend backend, Precision precision) {
  SolverOptions o;
  o.core = core;
  o.method = Method::Direct;
  o.backend = backend;
  o.precision = precision;
  return o;
}

class GpuDirect : public ::testing::TestWithParam<Core> {
 protected:
  void SetUp() override {
    if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_P(GpuDirect, MatchesCpuDoubleInFloatAndDouble) {
  const Core core = GetParam();
  // Not a multiple of any block size. A close pair exercises the small-rho series of the cores;
  // the singular kernel is left without it (see gpu_case).
  ParticleSet p = testing::gpu_case(core, 3001, 21);
  if (core != Core::Singular)
    p.push_back(p.x[0] + 1e-4, p.y[0], p.z[0], 1e-4, 2e-4, -1e-4, p.sigma[0]);
  const VelocityField ref = Solver(direct(core, Backend::Cpu, Precision::Double)).evaluate(p, true);

  const VelocityField f = Solver(direct(core, Backend::Cuda, Precision::Float)).evaluate(p, true);
  EXPECT_EQ(f.stats.backend, "cuda");
  EXPECT_EQ(f.stats.precision, "float");
  EXPECT_LE(relative_l2_velocity(f, ref), 1e-5);
  EXPECT_LE(relative_l2_gradient(f, ref), 1e-5);

  const VelocityField d = Solver(direct(core, Backend::Cuda, Precision::Double)).evaluate(p, true);
  EXPECT_EQ(d.stats.precision, "double");
  EXPECT_LE(relative_l2_velocity(d, ref), 1e-12);
  EXPECT_LE(relative_l2_gradient(d, ref), 1e-12);
}

TEST_P(GpuDirect, SeparateTargetsAndVelocityOnly) {
  const Core core = GetParam();
  const ParticleSet p = testing::gpu_case(core, 1500, 22);
  Points t = random_points(777, 23, -0.3, 1.3);
  t.push_back(p.x[5], p.y[5], p.z[5]);  // a target exactly on a source
  const VelocityField ref =
      Solver(direct(core, Backend::Cpu, Precision::Double)).evaluate(p, t, true);
  Solver gpu(direct(core, Backend::Cuda, Precision::Float));
  const VelocityField f = gpu.evaluate(p, t, true);
  ASSERT_EQ(f.size(), t.size());
  EXPECT_LE(relative_l2_velocity(f, ref), 1e-5);
  EXPECT_LE(relative_l2_gradient(f, ref), 1e-5);
  const VelocityField v = gpu.evaluate(p, t, false);
  EXPECT_FALSE(v.has_gradient);
  EXPECT_LE(relative_l2_velocity(v, ref), 1e-5);
}

INSTANTIATE_TEST_SUITE_P(AllCores, GpuDirect, ::testing::ValuesIn(testing::kAllCores),
                         testing::CoreName());

TEST(GpuDirectLarge, FloatAccumulationLosesNoDigits) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  // Large enough that a plain float running sum over all sources would drift.
  const ParticleSet p = random_cube(60000, 24);
  Points t;
  for (std::size_t i = 0; i < p.size(); i += 97) t.push_back(p.x[i], p.y[i], p.z[i]);
  const VelocityField ref =
      Solver(direct(Core::Exponential, Backend::Cpu, Precision::Double)).evaluate(p, t, true);
  const VelocityField f =
      Solver(direct(Core::Exponential, Backend::Cuda, Precision::Float)).evaluate(p, t, true);
  EXPECT_LE(relative_l2_velocity(f, ref), 1e-5);
  EXPECT_LE(relative_l2_gradient(f, ref), 1e-5);
}

}  // namespace
}  // namespace vortex
