// Float sums far from 1: the field is linear in the strengths, and the float treecode keeps that
// when strengths are small enough for its expansion products to leave float's normal range.

#include <gtest/gtest.h>

#include "support/reference.hpp"
#include "vortex/generators.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

using testing::relative_l2_gradient;
using testing::relative_l2_velocity;

VelocityField scaled(VelocityField f, double factor) {
  for (auto& c : f.u)
    for (double& v : c) v *= factor;
  for (auto& c : f.du)
    for (double& v : c) v *= factor;
  return f;
}

TEST(FloatRange, TinyStrengthsScaleTheField) {
  const ParticleSet p = random_cube(4000, 8);
  SolverOptions o;
  o.backend = Backend::Cpu;
  o.precision = Precision::Float;
  o.tree.order = 13;
  o.tree.theta = 0.45;
  o.tree.source_bucket = 64;
  const VelocityField reference = Solver(o).evaluate(p, true);
  ASSERT_GT(reference.stats.multipole_interactions, 0u);
  for (double factor : {1e-12, 1e-20}) {
    ParticleSet q = p;
    for (auto* g : {&q.gx, &q.gy, &q.gz})
      for (double& v : *g) v *= factor;
    const VelocityField f = scaled(Solver(o).evaluate(q, true), 1 / factor);
    EXPECT_LT(relative_l2_velocity(f, reference), 1e-5) << factor;
    EXPECT_LT(relative_l2_gradient(f, reference), 1e-5) << factor;
  }
}

}  // namespace
}  // namespace vortex
