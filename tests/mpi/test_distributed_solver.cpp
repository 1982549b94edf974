// The distributed solver against the one-rank Solver: the same sums of the same set, wherever its
// particles start, on 1 to 4 ranks (ctest runs this suite under mpiexec with each count); and its
// errors against the long-double direct sum.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>

#include "mpi_cases.hpp"
#include "support/reference.hpp"
#include "vortex/generators.hpp"
#include "vortex/mpi/distributed_solver.hpp"
#include "vortex/solver.hpp"

namespace vortex::testing {
namespace {

SolverOptions cpu_options(Precision precision, FarField far = FarField::Auto) {
  SolverOptions o;
  o.backend = Backend::Cpu;
  o.precision = precision;
  o.far_field = far;
  return o;
}

// A global set, one of the suite's three clouds.
ParticleSet cloud(const std::string& name, std::size_t n) {
  if (name == "cube") return vortex::random_cube(n, 11);
  if (name == "plummer") return plummer_sphere(n, 12);
  if (name == "ring") {  // the vortex ring of vortex-ring: its particles' coordinates tie
    RingOptions ring;
    ring.layers = 2;
    return vortex_ring(ring);
  }
  return thin_sheet(n, 13);
}

// The distributed call on this rank's share of `all` (dealt by owner) against the one-rank call,
// velocity and gradient, over all ranks; and its mean errors against the direct sum at every
// 97th particle.
struct Comparison {
  double velocity = 0, gradient = 0;              // relative L2 against the one-rank Solver
  double error_velocity = 0, error_gradient = 0;  // mean relative against the direct sum
};

Comparison compare(const ParticleSet& all, const SolverOptions& options,
                   const std::function<int(std::size_t)>& owner, bool against_direct) {
  const std::vector<std::size_t> idx = dealt(all.size(), owner);
  const ParticleSet mine = subset(all, idx);
  mpi::DistributedSolver distributed(MPI_COMM_WORLD, options);
  const VelocityField got = distributed.evaluate(mine, true);
  Solver one(options);
  const VelocityField want = subset(one.evaluate(all, true), idx);
  Comparison c;
  c.velocity = global_relative_l2(got, want, false);
  c.gradient = global_relative_l2(got, want, true);
  if (against_direct) {
    Points samples;
    std::vector<std::size_t> which;
    for (std::size_t k = 0; k < idx.size(); ++k)
      if (idx[k] % 97 == 0) {
        samples.push_back(mine.x[k], mine.y[k], mine.z[k]);
        which.push_back(k);
      }
    const VelocityField ref = reference_direct(all, samples, options.core, true);
    VelocityField sampled = subset(got, which);
    double sums[3] = {static_cast<double>(which.size()), 0, 0};
    if (!which.empty()) {
      sums[1] = mean_relative_velocity(sampled, ref) * which.size();
      sums[2] = mean_relative_gradient(sampled, ref) * which.size();
    }
    MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    c.error_velocity = sums[1] / sums[0];
    c.error_gradient = sums[2] / sums[0];
  }
  if (world_rank() == 0)
    std::printf("  %d ranks: against one rank %.3g (u) %.3g (grad u); against direct %.3g %.3g\n",
                world_size(), c.velocity, c.gradient, c.error_velocity, c.error_gradient);
  return c;
}

class CloudCase : public ::testing::TestWithParam<const char*> {};

TEST_P(CloudCase, EqualsTheOneRankSolverInDouble) {
  const ParticleSet all = cloud(GetParam(), 12000);
  const Comparison c = compare(all, cpu_options(Precision::Double), scattered, true);
  EXPECT_LE(c.velocity, 1e-12);
  EXPECT_LE(c.gradient, 1e-12);
  EXPECT_LE(c.error_velocity, 2e-4);
  EXPECT_LE(c.error_gradient, 2e-4);
}

TEST_P(CloudCase, EqualsTheOneRankSolverInFloat) {
  const ParticleSet all = cloud(GetParam(), 12000);
  const Comparison c = compare(all, cpu_options(Precision::Float), scattered, false);
  EXPECT_LE(c.velocity, 1e-6);
  EXPECT_LE(c.gradient, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Clouds, CloudCase, ::testing::Values("cube", "plummer", "sheet", "ring"));

// A Plummer sphere whose outskirts the adaptive cuts (vortex/math/tree_node.hpp) peel off at
// several depths across ranks: the tree, and so the field, of one rank.
TEST(DistributedSolver, AdaptiveCutsOfAPlummerSphereAsOneRank) {
  const ParticleSet all = plummer_sphere(20000, 14);
  const Comparison c = compare(all, cpu_options(Precision::Double), scattered, false);
  EXPECT_LE(c.velocity, 1e-12);
  EXPECT_LE(c.gradient, 1e-12);
}

// The same at the other arities: the ranks decide the adaptive cuts of the nodes that hold a
// boundary, at each of their binary depths, and the rank-roots' builds the rest.
TEST(DistributedSolver, AdaptiveCutsOfAPlummerSphereAtEveryArity) {
  const ParticleSet all = plummer_sphere(8000, 15);
  for (const int arity : {2, 4}) {
    SolverOptions options = cpu_options(Precision::Double);
    options.tree.arity = arity;
    const Comparison c = compare(all, options, scattered, false);
    EXPECT_LE(c.velocity, 1e-12) << arity;
    EXPECT_LE(c.gradient, 1e-12) << arity;
  }
}

TEST(DistributedSolver, UnevenCountsAndARankWithNothing) {
  // Rank 0 holds most particles, the last rank (of several) none.
  const ParticleSet all = vortex::random_cube(9000, 21);
  const int ranks = world_size();
  auto owner = [ranks](std::size_t i) {
    if (ranks == 1) return 0;
    if (i % 10 < 7) return 0;
    return ranks == 2 ? 1 : 1 + static_cast<int>(i % (ranks - 2));
  };
  const Comparison c = compare(all, cpu_options(Precision::Double), owner, false);
  EXPECT_LE(c.velocity, 1e-12);
  EXPECT_LE(c.gradient, 1e-12);
}

TEST(DistributedSolver, ASplitWeightedByTheLastCallsCostChangesNothingButTheShares) {
  // The second call splits the targets by the first call's cost per target: other shares, the
  // same tree and sums.
  const ParticleSet all = plummer_sphere(12000, 61);
  const std::vector<std::size_t> idx = dealt(all.size(), scattered);
  const ParticleSet mine = subset(all, idx);
  const SolverOptions options = cpu_options(Precision::Double);
  mpi::DistributedSolver distributed(MPI_COMM_WORLD, options);
  VelocityField got;
  distributed.evaluate(SourcesView(mine), PointsView(mine), true, got);
  const std::uint64_t first = distributed.stats().targets;
  distributed.evaluate(SourcesView(mine), PointsView(mine), true, got);
  const std::uint64_t second = distributed.stats().targets;
  unsigned long long total = second;
  MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, all.size());
  if (world_rank() == 0)
    std::printf("  %d ranks: rank 0 held %llu targets, then %llu\n", world_size(),
                static_cast<unsigned long long>(first), static_cast<unsigned long long>(second));
  const VelocityField want = subset(Solver(options).evaluate(all, true), idx);
  EXPECT_LE(global_relative_l2(got, want, false), 1e-12);
  EXPECT_LE(global_relative_l2(got, want, true), 1e-12);
}

// The split follows the counted work of the last call, not its clocks: two solvers given the same
// calls split alike and give the same results to the bit.
TEST(DistributedSolver, TheSplitIsTheSameInEveryRun) {
  const ParticleSet all = plummer_sphere(8000, 62);
  const ParticleSet mine = subset(all, dealt(all.size(), scattered));
  const SolverOptions options = cpu_options(Precision::Double);
  mpi::DistributedSolver a(MPI_COMM_WORLD, options), b(MPI_COMM_WORLD, options);
  VelocityField fa, fb;
  for (int call = 0; call < 2; ++call) {  // the second call splits by the first's work
    a.evaluate(SourcesView(mine), PointsView(mine), true, fa);
    b.evaluate(SourcesView(mine), PointsView(mine), true, fb);
    EXPECT_EQ(a.stats().targets, b.stats().targets) << "call " << call;
    EXPECT_EQ(fa.u, fb.u) << "call " << call;
    EXPECT_EQ(fa.du, fb.du) << "call " << call;
  }
}

// Every rank's (x, y, z, u_x, u_y, u_z) rows, sorted, on rank 0 (empty elsewhere).
std::vector<std::array<double, 6>> gathered_rows(const ParticleSet& p, const VelocityField& f) {
  std::vector<std::array<double, 6>> rows(p.size());
  for (std::size_t i = 0; i < p.size(); ++i)
    rows[i] = {p.x[i], p.y[i], p.z[i], f.u[0][i], f.u[1][i], f.u[2][i]};
  int count = static_cast<int>(6 * rows.size());
  std::vector<int> counts(world_size()), displs(world_size(), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int r = 1; r < world_size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<std::array<double, 6>> all(world_rank() == 0 ? (displs.back() + counts.back()) / 6
                                                           : 0);
  MPI_Gatherv(rows.data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE,
              0, MPI_COMM_WORLD);
  std::sort(all.begin(), all.end());
  return all;
}

TEST(DistributedSolver, RepartitionedParticlesStayAndGiveTheSameField) {
  const ParticleSet all = plummer_sphere(9000, 71);
  ParticleSet mine = subset(all, dealt(all.size(), scattered));
  const SolverOptions options = cpu_options(Precision::Double);
  mpi::DistributedSolver distributed(MPI_COMM_WORLD, options);
  const VelocityField before = distributed.evaluate(mine, false);
  const auto rows_before = gathered_rows(mine, before);
  distributed.repartition(mine);
  const VelocityField after = distributed.evaluate(mine, false);
  // The sources stay where they are; the set and its field are the same.
  EXPECT_EQ(distributed.stats().sources_moved, 0u);
  unsigned long long n = mine.size();
  MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(n, all.size());
  const auto rows_after = gathered_rows(mine, after);
  ASSERT_EQ(rows_before.size(), rows_after.size());
  double worst = 0;
  for (std::size_t i = 0; i < rows_before.size(); ++i) {
    for (int k = 0; k < 3; ++k) EXPECT_EQ(rows_before[i][k], rows_after[i][k]);
    const double scale = std::hypot(rows_before[i][3], rows_before[i][4], rows_before[i][5]);
    for (int k = 3; k < 6; ++k)
      worst = std::max(worst, std::abs(rows_before[i][k] - rows_after[i][k]) / scale);
  }
  EXPECT_LE(worst, 1e-12);
}

TEST(DistributedSolver, TargetsApartFromTheSources) {
  const ParticleSet all = vortex::random_cube(8000, 31);
  const Points points = random_points(5000, 32, -1.2, 1.2);
  const std::vector<std::size_t> s = dealt(all.size(), scattered);
  // Targets dealt differently from the sources: rank r holds the r-th block.
  const std::vector<std::size_t> t =
      dealt(points.size(), [](std::size_t i) { return static_cast<int>(i * world_size() / 5000); });
  const SolverOptions options = cpu_options(Precision::Double);
  mpi::DistributedSolver distributed(MPI_COMM_WORLD, options);
  const Points mine = subset(PointsView(points), t);
  const VelocityField got = distributed.evaluate(subset(all, s), PointsView(mine), true);
  const VelocityField want = subset(Solver(options).evaluate(all, PointsView(points), true), t);
  EXPECT_LE(global_relative_l2(got, want, false), 1e-12);
  EXPECT_LE(global_relative_l2(got, want, true), 1e-12);
  EXPECT_EQ(distributed.stats().total_sources, 8000u);
  EXPECT_EQ(distributed.stats().total_targets, 5000u);
}

TEST(DistributedSolver, DirectMethodEqualsTheOneRankDirectSum) {
  const ParticleSet all = vortex::random_cube(3000, 41);
  SolverOptions options = cpu_options(Precision::Double);
  options.method = Method::Direct;
  const Comparison c = compare(all, options, scattered, false);
  EXPECT_LE(c.velocity, 1e-13);
  EXPECT_LE(c.gradient, 1e-13);
}

TEST_P(CloudCase, EveryFarFieldEqualsTheOneRankSolver) {
  // M2P alone (the GPU's far field), and local expansions wherever they may go (the CPU's Local),
  // including the top's nodes whose leaves are on several ranks.
  const ParticleSet all = cloud(GetParam(), 12000);
  for (const FarField far : {FarField::M2P, FarField::Local}) {
    const Comparison c = compare(all, cpu_options(Precision::Double, far), scattered, true);
    EXPECT_LE(c.velocity, 1e-12) << to_string(far);
    EXPECT_LE(c.gradient, 1e-12) << to_string(far);
    EXPECT_LE(c.error_velocity, 2e-4) << to_string(far);
    EXPECT_LE(c.error_gradient, 2e-4) << to_string(far);
  }
}

TEST(DistributedSolver, GpuRanksEqualTheOneRankSolver) {
  // One GPU a rank (the ranks of a node take its GPUs in turn), against one GPU with the trees
  // built on the host as the ranks build them; skipped without a GPU.
  int everywhere = cuda_available() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!everywhere) GTEST_SKIP() << "no CUDA device on every rank";
  for (const char* name : {"cube", "plummer", "sheet"}) {
    const ParticleSet all = cloud(name, 200000);
    for (const Precision precision : {Precision::Double, Precision::Float}) {
      SolverOptions options;
      options.backend = Backend::Cuda;
      options.precision = precision;
      options.tree_build = TreeBuild::Host;
      const Comparison c = compare(all, options, scattered, false);
      const double bound = precision == Precision::Double ? 1e-12 : 1e-6;
      EXPECT_LE(c.velocity, bound) << name;
      EXPECT_LE(c.gradient, bound) << name;
    }
  }
}

}  // namespace
}  // namespace vortex::testing
