// The vortex method's steps on ranks: VRM and PSE diffusion and particle control of particles
// split over the ranks give every particle what the one-rank step of the whole set gives it (the
// same set of particles, positions exact, strengths to 1e-12), through several steps, for
// particles dealt by slabs, scattered, or with a rank left empty; options that differ are named on
// every rank.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "mpi_cases.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/mpi/distributed_toolkit.hpp"
#include "vortex/particle_control.hpp"
#include "vortex/pse.hpp"
#include "vortex/solver.hpp"
#include "vortex/vrm.hpp"

namespace vortex::testing {
namespace {

// A jittered Gaussian blob of z vorticity on the lattice h Z^3, within `extent` widths s.
ParticleSet jittered_blob(double h, double s, double extent, double jitter) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-jitter * h, jitter * h);
  ParticleSet p;
  const int n = static_cast<int>(std::ceil(extent * s / h));
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int k = -n; k <= n; ++k) {
        const double x = i * h + u(rng), y = j * h + u(rng), z = k * h + u(rng);
        const double r2 = x * x + y * y + z * z;
        if (r2 > extent * extent * s * s) continue;
        p.push_back(x, y, z, 0.1 * std::exp(-r2 / (2 * s * s)) * h * h * h, 0,
                    std::exp(-r2 / (2 * s * s)) * h * h * h, h);
      }
  return p;
}

// Slabs along x, the same count each.
std::vector<int> slabs(const ParticleSet& p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p.x[a] < p.x[b]; });
  std::vector<int> owner(p.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    owner[order[k]] = static_cast<int>(k * world_size() / order.size());
  return owner;
}

// Every rank's particles, on every rank, in rank order.
ParticleSet gathered(const ParticleSet& mine) {
  const int count = static_cast<int>(mine.size());
  std::vector<int> counts(world_size()), starts(world_size() + 1, 0);
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < world_size(); ++r) starts[r + 1] = starts[r] + counts[r];
  ParticleSet all;
  all.resize(starts.back());
  const std::vector<double> ParticleSet::*arrays[] = {
      &ParticleSet::x,  &ParticleSet::y,  &ParticleSet::z,    &ParticleSet::gx,
      &ParticleSet::gy, &ParticleSet::gz, &ParticleSet::sigma};
  for (auto a : arrays)
    MPI_Allgatherv((mine.*a).data(), count, MPI_DOUBLE, const_cast<double*>((all.*a).data()),
                   counts.data(), starts.data(), MPI_DOUBLE, MPI_COMM_WORLD);
  return all;
}

// The set in the order of its positions (then strengths).
ParticleSet by_position(const ParticleSet& p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto key = [&](std::size_t i) {
    return std::array<double, 4>{p.x[i], p.y[i], p.z[i], p.gz[i]};
  };
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  return subset(p, order);
}

// The ranks' sets together equal the one-rank set: the same particles at the same places with the
// same cores, strengths to `tolerance` (relative L2).
void expect_same_set(const ParticleSet& mine, const ParticleSet& whole, double tolerance) {
  const ParticleSet a = by_position(gathered(mine)), b = by_position(whole);
  ASSERT_EQ(a.size(), b.size());
  double d2 = 0, s2 = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a.x[i], b.x[i]) << i;
    ASSERT_EQ(a.y[i], b.y[i]) << i;
    ASSERT_EQ(a.z[i], b.z[i]) << i;
    ASSERT_EQ(a.sigma[i], b.sigma[i]) << i;
    for (const auto g : {&ParticleSet::gx, &ParticleSet::gy, &ParticleSet::gz}) {
      d2 += ((a.*g)[i] - (b.*g)[i]) * ((a.*g)[i] - (b.*g)[i]);
      s2 += (b.*g)[i] * (b.*g)[i];
    }
  }
  EXPECT_LE(std::sqrt(d2 / s2), tolerance);
}

std::vector<std::size_t> owned_by(const std::vector<int>& owner) {
  return dealt(owner.size(), [&](std::size_t i) { return owner[i]; });
}

// Steps of VRM on ranks beside the one-rank steps of the whole set, compared after each.
void vrm_steps_agree(const ParticleSet& start, const std::vector<int>& owner, int steps,
                     Backend backend = Backend::Cpu) {
  const double h = 1, nu = 1, dt = 0.125;  // h^2 = 8 nu dt
  VrmOptions options;
  options.spacing = h;
  options.backend = backend;
  ParticleSet whole = start, mine = subset(start, owned_by(owner));
  VrmWorkspace one, split;
  std::size_t inserted = 0;
  for (int s = 0; s < steps; ++s) {
    const VrmStats alone = vrm_diffuse(whole, nu, dt, options, one);
    const VrmStats ranks = mpi::vrm_diffuse(MPI_COMM_WORLD, mine, nu, dt, options, split);
    EXPECT_EQ(ranks.inserted, alone.inserted) << "step " << s;
    EXPECT_EQ(ranks.diffused, alone.diffused) << "step " << s;
    EXPECT_EQ(ranks.kept, alone.kept) << "step " << s;
    inserted += alone.inserted;
    expect_same_set(mine, whole, 1e-12);
  }
  EXPECT_GT(inserted, 0u);  // the case inserts particles
}

TEST(DistributedVrm, SlabsDiffuseAsOneRank) {
  const ParticleSet blob = jittered_blob(1, 1.5, 3.5, 0.15);
  vrm_steps_agree(blob, slabs(blob), 3);
}

// The first round's owners solved on each rank's GPU (VrmOptions::backend), the halo's copies
// among their neighbours.
TEST(DistributedVrm, SlabsDiffuseAsOneRankOnGpus) {
  int everywhere = cuda_available() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!everywhere) GTEST_SKIP() << "no CUDA device on every rank";
  const ParticleSet blob = jittered_blob(1, 1.5, 3.5, 0.15);
  vrm_steps_agree(blob, slabs(blob), 3, Backend::Cuda);
}

TEST(DistributedVrm, ScatteredParticlesDiffuseAsOneRank) {
  const ParticleSet blob = jittered_blob(1, 1.2, 3.0, 0.15);
  std::vector<int> owner(blob.size());
  for (std::size_t i = 0; i < blob.size(); ++i) owner[i] = scattered(i);
  vrm_steps_agree(blob, owner, 2);
}

TEST(DistributedVrm, ARankWithoutParticlesTakesPart) {
  const ParticleSet blob = jittered_blob(1, 1.2, 3.0, 0.15);
  std::vector<int> owner = slabs(blob);
  const int last = world_size() - 1;
  for (int& r : owner)
    if (r == last && last > 0) r = 0;
  vrm_steps_agree(blob, owner, 2);
}

// `step` on rank 0's particles with an option that rank 1 sets otherwise: every rank throws
// std::invalid_argument naming `option`.
template <class Step>
void expect_option_named(const char* option, Step&& step) {
  ParticleSet mine = subset(jittered_blob(1, 1.2, 2.0, 0.1), owned_by(std::vector<int>(1, 0)));
  try {
    step(mine);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(option), std::string::npos) << e.what();
  }
}

TEST(DistributedVrm, OptionsThatDifferAreNamedOnEveryRank) {
  if (world_size() == 1) GTEST_SKIP() << "one rank";
  VrmOptions options;
  options.spacing = world_rank() == 1 ? 1.5 : 1.0;
  VrmWorkspace workspace;
  expect_option_named("spacing", [&](ParticleSet& mine) {
    mpi::vrm_diffuse(MPI_COMM_WORLD, mine, 1, 0.125, options, workspace);
  });
}

// Steps of PSE on ranks beside the one-rank steps of the whole set: three sub-steps a step, each
// stage reading the copies' strengths of that stage from their ranks.
void pse_steps_agree(const ParticleSet& start, const std::vector<int>& owner, int steps) {
  PseOptions options;
  options.epsilon = 1;
  options.volume = 1;
  const double nu = 1, dt = 0.5;  // nu dt / eps^2 = 0.5: three sub-steps of at most 0.2
  ParticleSet whole = start, mine = subset(start, owned_by(owner));
  for (int s = 0; s < steps; ++s) {
    const int alone = pse_diffuse(whole, nu, dt, options);
    const int ranks = mpi::pse_diffuse(MPI_COMM_WORLD, mine, nu, dt, options);
    EXPECT_EQ(alone, 3);
    EXPECT_EQ(ranks, alone);
    expect_same_set(mine, whole, 1e-12);
  }
}

TEST(DistributedPse, SlabsDiffuseAsOneRank) {
  const ParticleSet blob = jittered_blob(1, 1.2, 3.0, 0.15);
  pse_steps_agree(blob, slabs(blob), 2);
}

TEST(DistributedPse, ScatteredParticlesAndAnEmptyRankDiffuseAsOneRank) {
  const ParticleSet blob = jittered_blob(1, 1.2, 3.0, 0.15);
  std::vector<int> owner(blob.size());
  const int last = world_size() - 1;
  for (std::size_t i = 0; i < blob.size(); ++i) {
    owner[i] = scattered(i);
    if (owner[i] == last && last > 0) owner[i] = 0;
  }
  pse_steps_agree(blob, owner, 2);
}

TEST(DistributedPse, OptionsThatDifferAreNamedOnEveryRank) {
  if (world_size() == 1) GTEST_SKIP() << "one rank";
  PseOptions options;
  options.epsilon = world_rank() == 1 ? 1.5 : 1.0;
  options.volume = 1;
  expect_option_named("epsilon", [&](ParticleSet& mine) {
    mpi::pse_diffuse(MPI_COMM_WORLD, mine, 1, 0.5, options);
  });
}

// Bad input on one rank fails every rank with the same error, naming the rank, before any
// collective of the step could leave the others waiting.
TEST(DistributedToolkit, BadInputOnOneRankFailsEveryRank) {
  const ParticleSet blob = jittered_blob(1, 1.2, 2.5, 0.1);
  const int bad = world_size() - 1;
  const auto expect_everywhere = [&](const std::function<void()>& call, const char* words) {
    try {
      call();
      ADD_FAILURE() << "no error for " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
      if (world_rank() != bad)  // the failing rank throws its own error, the others name it
        EXPECT_NE(std::string(e.what()).find("rank " + std::to_string(bad)), std::string::npos)
            << e.what();
    }
  };
  ParticleSet mine = subset(blob, owned_by(slabs(blob)));
  if (world_rank() == bad) mine.x.front() = std::nan("");
  VrmOptions vrm;
  vrm.spacing = 1;
  VrmWorkspace vrm_workspace;
  expect_everywhere([&] { mpi::vrm_diffuse(MPI_COMM_WORLD, mine, 1, 0.125, vrm, vrm_workspace); },
                    "not finite");
  ParticleControlOptions control;
  control.spacing = 1;
  ParticleControlWorkspace control_workspace;
  expect_everywhere(
      [&] { mpi::control_particles(MPI_COMM_WORLD, mine, control, control_workspace); },
      "not finite");
  mine = subset(blob, owned_by(slabs(blob)));
  if (world_rank() == bad) control.merge_distance = 2;  // out of range on one rank
  expect_everywhere(
      [&] { mpi::control_particles(MPI_COMM_WORLD, mine, control, control_workspace); },
      "merge_distance");
}

// A blob with weak particles at its edge and, near some particles, a close neighbour (within
// 0.35 h) of a different strength: removals and merges.
ParticleSet crowded_blob() {
  ParticleSet p = jittered_blob(1, 1.2, 3.2, 0.15);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-0.2, 0.2), f(0.3, 1.7);
  const std::size_t n = p.size();
  for (std::size_t i = 0; i < n; i += 5)
    p.push_back(p.x[i] + u(rng), p.y[i] + u(rng), p.z[i] + u(rng), f(rng) * p.gx[i],
                f(rng) * p.gy[i], f(rng) * p.gz[i], p.sigma[i]);
  return p;
}

void control_agrees(const ParticleSet& start, const std::vector<int>& owner,
                    const ParticleControlOptions& options) {
  ParticleSet whole = start, mine = subset(start, owned_by(owner));
  ParticleControlWorkspace one, split;
  const ParticleControlStats alone = control_particles(whole, options, one);
  const ParticleControlStats ranks = mpi::control_particles(MPI_COMM_WORLD, mine, options, split);
  EXPECT_GT(alone.removed + alone.merged, 0u);
  EXPECT_EQ(ranks.removed, alone.removed);
  EXPECT_EQ(ranks.merged, alone.merged);
  EXPECT_EQ(ranks.partner_merges, alone.partner_merges);
  EXPECT_EQ(ranks.kept, alone.kept);
  EXPECT_EQ(ranks.threshold, alone.threshold);
  EXPECT_EQ(ranks.strongest_after, alone.strongest_after);
  expect_same_set(mine, whole, 1e-12);
  // Removals and merges keep the total vorticity, and the linear impulse to rounding where
  // merges spread (merges into partners keep it only for parallel strengths).
  const Diagnostics before = compute_diagnostics(start);
  const Diagnostics after = mpi::compute_diagnostics(MPI_COMM_WORLD, mine);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(after.total_vorticity[k], before.total_vorticity[k], 1e-13 * before.sum_strength);
    if (options.merge_into == MergeInto::Neighbours)
      EXPECT_NEAR(after.linear_impulse[k], before.linear_impulse[k], 1e-12 * before.sum_strength);
  }
  EXPECT_EQ(after.count, whole.size());
}

// The crowded blob's removals and merges (into neighbours or partners), split in slabs and
// scattered over the ranks.
void blob_control_agrees(MergeInto merge_into) {
  const ParticleSet blob = crowded_blob();
  ParticleControlOptions options;
  options.spacing = 1;
  options.remove_threshold = 1e-2;
  options.merge_distance = 0.5;
  options.merge_into = merge_into;
  {
    ParticleSet whole = blob;
    const ParticleControlStats alone = control_particles(whole, options);
    EXPECT_GT(alone.removed, 0u);  // the case removes and merges
    EXPECT_GT(alone.merged, 0u);
    if (merge_into == MergeInto::Partner) EXPECT_GT(alone.partner_merges, 0u);
  }
  control_agrees(blob, slabs(blob), options);
  std::vector<int> owner(blob.size());
  for (std::size_t i = 0; i < blob.size(); ++i) owner[i] = scattered(i);
  control_agrees(blob, owner, options);
}

TEST(DistributedParticleControl, RemovalsAndMergesAsOneRank) {
  blob_control_agrees(MergeInto::Neighbours);
}

// Partners that are other ranks' particles take the merged strength and move as on one rank.
TEST(DistributedParticleControl, MergesIntoPartnersAsOneRank) {
  blob_control_agrees(MergeInto::Partner);
}

TEST(DistributedParticleControl, TheCountBoundIsTheWholeSets) {
  const ParticleSet blob = crowded_blob();
  ParticleControlOptions options;
  options.spacing = 1;
  options.max_particles = blob.size() * 3 / 4;
  std::vector<int> owner = slabs(blob);
  const int last = world_size() - 1;
  for (int& r : owner)
    if (r == last && last > 0) r = 0;  // and a rank without particles
  control_agrees(blob, owner, options);
}

}  // namespace
}  // namespace vortex::testing
