// Bad arguments to the C++ API throw exceptions that name the problem, before anything is read out
// of bounds: target arrays of different lengths, null views, a moved-from Solver, enumeration
// values outside their lists, thread counts past the limit, and tiny values printed as they are.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "support/message_of.hpp"
#include "support/reference.hpp"
#include "vortex/generators.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

using testing::message_of;

SolverOptions cpu_options() {
  SolverOptions o;
  o.backend = Backend::Cpu;
  return o;
}

TEST(ApiChecks, TargetArraysOfDifferentLengths) {
  const ParticleSet sources = testing::random_cube(50, 3);
  Points targets;
  targets.x = {0.1, 0.2, 0.3};
  targets.y = {0.1};
  targets.z = {0.1, 0.2, 0.3};
  Solver solver(cpu_options());
  EXPECT_EQ(message_of<std::invalid_argument>([&] { solver.evaluate(sources, targets, true); }),
            "points: x, y and z have 3, 1 and 3 entries");
  // The same when the targets are a particle set.
  ParticleSet as_targets = sources;
  as_targets.z.resize(2000);
  EXPECT_EQ(message_of<std::invalid_argument>([&] { solver.evaluate(sources, as_targets, true); }),
            "particles: x, y and z have 50, 50 and 2000 entries");
}

TEST(ApiChecks, NullTargetArrays) {
  const ParticleSet sources = testing::random_cube(50, 3);
  PointsView view;
  view.n = 10;
  Solver solver(cpu_options());
  EXPECT_EQ(message_of<std::invalid_argument>([&] { solver.evaluate(sources, view, false); }),
            "targets: x is a null pointer for 10 points");
  const Points points = sources.positions();
  view = PointsView(points);
  view.z = nullptr;
  EXPECT_EQ(message_of<std::invalid_argument>([&] { solver.evaluate(sources, view, false); }),
            "targets: z is a null pointer for 50 points");
}

TEST(ApiChecks, MovedFromSolver) {
  const ParticleSet sources = testing::random_cube(50, 3);
  Solver solver(cpu_options());
  Solver taker(std::move(solver));
  EXPECT_EQ(message_of<std::logic_error>([&] { solver.evaluate(sources, false); }),
            "vortex::Solver: used after it was moved from");
  EXPECT_EQ(taker.evaluate(sources, false).size(), 50u);  // the new owner works
}

TEST(ApiChecks, EnumerationValuesOutsideTheirLists) {
  SolverOptions o = cpu_options();
  o.core = static_cast<Core>(7);
  EXPECT_EQ(message_of<std::invalid_argument>([&] { Solver{o}; }), "7 is not a Core value");
  o = cpu_options();
  o.method = static_cast<Method>(-1);
  EXPECT_EQ(message_of<std::invalid_argument>([&] { Solver{o}; }), "-1 is not a Method value");
  o = cpu_options();
  o.backend = static_cast<Backend>(3);
  EXPECT_EQ(message_of<std::invalid_argument>([&] { Solver{o}; }), "3 is not a Backend value");
  o = cpu_options();
  o.precision = static_cast<Precision>(9);
  EXPECT_EQ(message_of<std::invalid_argument>([&] { Solver{o}; }), "9 is not a Precision value");
}

TEST(ApiChecks, ThreadCountAboveTheLimit) {
  SolverOptions o = cpu_options();
  o.threads = 100000;
  const std::string expected =
      "threads must be in 0.." + std::to_string(kMaxThreads) + " (0: OpenMP's default), got ";
  EXPECT_EQ(message_of<std::invalid_argument>([&] { Solver{o}; }), expected + "100000");
  o.threads = kMaxThreads + 1;
  EXPECT_EQ(message_of<std::invalid_argument>([&] { validate_options(o); }),
            expected + std::to_string(kMaxThreads + 1));
  o.threads = -1;
  EXPECT_EQ(message_of<std::invalid_argument>([&] { validate_options(o); }), expected + "-1");
  o.threads = kMaxThreads;
  EXPECT_NO_THROW(validate_options(o));
}

TEST(ApiChecks, TinyValuesArePrintedAsThemselves) {
  ParticleSet sources = testing::random_cube(5, 3);
  sources.sigma[2] = -1e-300;
  EXPECT_EQ(message_of<std::invalid_argument>([&] { validate_sources(sources); }),
            "sources sigma[2] must be positive, got -1e-300");
  SolverOptions o;
  o.tolerance = -1e-9;
  EXPECT_EQ(message_of<std::invalid_argument>([&] { validate_options(o); }),
            "tolerance must be in [0, 1) (a mean relative error; 0: the defaults), got -1e-09");
  o.tolerance = 0;
  o.tree.theta = -1e-300;
  EXPECT_EQ(message_of<std::invalid_argument>([&] { validate_options(o); }),
            "theta must be in (0, 1) (0: default), got -1e-300");
  TwoScaleOptions two;
  two.ratio = 1e300;
  two.offset = -1e-300;
  EXPECT_EQ(message_of<std::invalid_argument>([&] { two_scale_cube(10, 1, two); }),
            "two-scale offset must be in [0, 1 - 1/ratio], got -1e-300");
}

}  // namespace
}  // namespace vortex
