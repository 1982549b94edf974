// The distributed solver's failures: every rank gets a clear error, none waits for the others
// (ctest bounds each run by a timeout).

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "mpi_cases.hpp"
#include "support/message_of.hpp"
#include "support/reference.hpp"
#include "vortex/mpi/distributed_solver.hpp"
#include "vortex/solver.hpp"

namespace vortex::testing {
namespace {

SolverOptions cpu() {
  SolverOptions o;
  o.backend = Backend::Cpu;
  return o;
}

ParticleSet my_share(std::size_t n, std::uint64_t seed) {
  return subset(random_cube(n, seed), dealt(n, scattered));
}

TEST(DistributedFailures, BadInputOnOneRankFailsEveryRank) {
  ParticleSet mine = my_share(2000, 1);
  const int last = world_size() - 1;
  if (world_rank() == last && mine.size() > 3) mine.sigma[3] = std::nan("");
  mpi::DistributedSolver solver(MPI_COMM_WORLD, cpu());
  VelocityField out;
  out.resize(5, false);
  const std::string m = message_of<std::invalid_argument>(
      [&] { solver.evaluate(SourcesView(mine), PointsView(mine), false, out); });
  EXPECT_NE(m.find("sigma"), std::string::npos) << m;
  if (world_rank() != last)
    EXPECT_NE(m.find("rank " + std::to_string(last)), std::string::npos) << m;
  EXPECT_EQ(out.size(), 0u);  // left empty on every rank
  EXPECT_THROW(solver.evaluate(mine, false), std::invalid_argument);
}

TEST(DistributedFailures, OptionsThatDifferBetweenRanksAreNamed) {
  const ParticleSet mine = my_share(2000, 2);
  SolverOptions options = cpu();
  if (world_rank() == world_size() - 1 && world_size() > 1) options.tree.theta = 0.4;
  mpi::DistributedSolver solver(MPI_COMM_WORLD, options);
  if (world_size() == 1) {
    EXPECT_NO_THROW(solver.evaluate(mine, false));
    return;
  }
  const std::string m = message_of<std::invalid_argument>([&] { solver.evaluate(mine, false); });
  EXPECT_NE(m.find("tree.theta"), std::string::npos) << m;
  EXPECT_NE(m.find("differs between ranks"), std::string::npos) << m;
}

TEST(DistributedFailures, NoSourcesOnAnyRank) {
  mpi::DistributedSolver solver(MPI_COMM_WORLD, cpu());
  const ParticleSet none;
  const Points targets = random_points(10, 3, -1, 1);
  VelocityField out;
  const std::string m = message_of<std::invalid_argument>(
      [&] { solver.evaluate(SourcesView(none), PointsView(targets), false, out); });
  EXPECT_NE(m.find("no source particles"), std::string::npos) << m;
}

TEST(DistributedFailures, SourcesOnOneRankTargetsOnAnother) {
  // Rank 0 holds every source and no target, the last rank every target: the sums still run.
  const ParticleSet all = random_cube(3000, 4);
  const Points points = random_points(500, 5, -1, 1);
  const bool first = world_rank() == 0, last = world_rank() == world_size() - 1;
  const ParticleSet sources = first ? all : ParticleSet{};
  const Points targets = last ? points : Points{};
  mpi::DistributedSolver solver(MPI_COMM_WORLD, cpu());
  VelocityField got;
  solver.evaluate(SourcesView(sources), PointsView(targets), true, got);
  EXPECT_EQ(got.size(), targets.size());
  if (last) {
    const VelocityField want = reference_direct(all, points, Core::Exponential, true);
    EXPECT_LE(mean_relative_velocity(got, want), 2e-4);
    EXPECT_LE(mean_relative_gradient(got, want), 2e-4);
  }
}

TEST(DistributedFailures, ABackendARankCannotRunFailsEveryRank) {
  // CUDA asked for where there is none: every rank fails the same way, none waits.
  if (cuda_available()) GTEST_SKIP() << "a GPU is present";
  SolverOptions options = cpu();
  options.backend = Backend::Cuda;
  mpi::DistributedSolver solver(MPI_COMM_WORLD, options);
  const ParticleSet mine = my_share(500, 7);
  EXPECT_THROW(solver.evaluate(mine, false), std::runtime_error);
}

TEST(DistributedFailures, NullCommunicatorIsRefused) {
  EXPECT_THROW(mpi::DistributedSolver(MPI_COMM_NULL, cpu()), std::invalid_argument);
}

}  // namespace
}  // namespace vortex::testing
