// What only the CUDA treecode has: a far kernel built for every multipole order, and work items
// split across blocks for uneven lists and large leaves. Both are held to the CPU treecode with the
// same options (the same trees and lists, so they differ only by arithmetic). The suites that run
// on both backends are test_direct.cpp and test_solver_tree.cpp.

#include <gtest/gtest.h>

#include <string>

#include "support/reference.hpp"
#include "vortex/generators.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

using testing::random_cube;
using testing::relative_l2_gradient;
using testing::relative_l2_velocity;

SolverOptions tree(Core core, Backend backend, Precision precision, int order = 8,
                   double theta = 0.5) {
  SolverOptions o;
  o.core = core;
  o.method = Method::Tree;
  o.backend = backend;
  o.precision = precision;
  o.tree.order = order;
  o.tree.theta = theta;
  o.tree.target_bucket = 64;
  o.tree.source_bucket = 64;
  // The CUDA backend's far field is M2P; the CPU's equals it only on the same path.
  o.far_field = FarField::M2P;
  return o;
}

TEST(GpuTreeOrders, EveryOrderMatchesTheCpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p = random_cube(3000, 42);
  for (int order = 1; order <= 16; ++order) {
    SCOPED_TRACE("p = " + std::to_string(order));
    for (bool gradient : {true, false}) {
      const VelocityField cpu =
          Solver(tree(Core::Exponential, Backend::Cpu, Precision::Double, order, 0.6))
              .evaluate(p, gradient);
      const VelocityField d =
          Solver(tree(Core::Exponential, Backend::Cuda, Precision::Double, order, 0.6))
              .evaluate(p, gradient);
      EXPECT_LE(relative_l2_velocity(d, cpu), 1e-12);
      if (gradient) EXPECT_LE(relative_l2_gradient(d, cpu), 1e-12);
      if (order <= 10) {
        const VelocityField f =
            Solver(tree(Core::Exponential, Backend::Cuda, Precision::Float, order, 0.6))
                .evaluate(p, gradient);
        EXPECT_LE(relative_l2_velocity(f, cpu), 1e-5);
        if (gradient) EXPECT_LE(relative_l2_gradient(f, cpu), 1e-5);
      }
    }
  }
}

TEST(GpuTreeLayout, UnevenListsBigLeavesAndOtherBuckets) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  // A clustered set gives near lists of very different lengths (split across blocks).
  const ParticleSet p = plummer_sphere(20000, 43);
  for (int target_bucket : {16, 64, 300}) {
    for (int source_bucket : {32, 512}) {
      SCOPED_TRACE("buckets " + std::to_string(target_bucket) + "/" +
                   std::to_string(source_bucket));
      SolverOptions o = tree(Core::Exponential, Backend::Cpu, Precision::Double, 7, 0.6);
      o.tree.target_bucket = target_bucket;
      o.tree.source_bucket = source_bucket;
      const VelocityField cpu = Solver(o).evaluate(p, true);
      o.backend = Backend::Cuda;
      o.precision = Precision::Float;
      const VelocityField f = Solver(o).evaluate(p, true);
      EXPECT_LE(relative_l2_velocity(f, cpu), 1e-5);
      EXPECT_LE(relative_l2_gradient(f, cpu), 1e-5);
    }
  }
}

}  // namespace
}  // namespace vortex
