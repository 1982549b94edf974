// The VRM's hand-over as a gather (vortex/math/vrm_handover.hpp, the device's path run here):
// what each particle gathers from the solved owners' lists equals the owners' strengths scattered
// by their fractions, summed directly; particles that no solved owner reaches get exactly zero.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "vortex/grid_search.hpp"
#include "vortex/math/vrm_handover.hpp"
#include "vortex/particles.hpp"

namespace vortex {
namespace {

TEST(VrmHandover, FindAscendingFindsEveryEntryAndNothingElse) {
  const std::vector<std::int32_t> list{2, 3, 7, 11, 40};
  for (int k = 0; k < 5; ++k) EXPECT_EQ(vrm::find_ascending(list.data(), 5, list[k]), k);
  for (std::int32_t j : {0, 1, 4, 8, 39, 41})
    EXPECT_EQ(vrm::find_ascending(list.data(), 5, j), -1) << j;
  EXPECT_EQ(vrm::find_ascending(list.data(), 0, 2), -1);
}

TEST(VrmHandover, TheGatherEqualsTheOwnersScatter) {
  // A jittered lattice of spacing 1 with strengths, and a far cluster that no owner reaches.
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  ParticleSet p;
  for (int i = -6; i <= 6; ++i)
    for (int j = -6; j <= 6; ++j)
      for (int k = -6; k <= 6; ++k)
        p.push_back(i + 0.3 * u(rng), j + 0.3 * u(rng), k + 0.3 * u(rng), u(rng), u(rng), u(rng),
                    1);
  const std::size_t lattice = p.size();
  for (int k = 0; k < 4; ++k) p.push_back(100 + k, 0, 0, 1, 1, 1, 1);
  const double radius = 1.5;
  GridSearch grid;
  grid.rebuild(PointsView(p), radius);
  // Every third lattice particle is a solved owner, with random fractions over its neighbours.
  const int capacity = 64;
  std::vector<std::int32_t> slot_of(p.size(), -1), size, neighbors;
  std::vector<double> fractions;
  std::vector<double> sx(p.size(), 0), sy(p.size(), 0), sz(p.size(), 0);
  std::vector<int> within;
  std::uniform_real_distribution<double> f01(0, 1);
  for (std::size_t i = 0; i < lattice; i += 3) {
    grid.query(p.x[i], p.y[i], p.z[i], radius, within);
    ASSERT_LE(within.size(), static_cast<std::size_t>(capacity));
    const auto t = static_cast<std::int32_t>(size.size());
    slot_of[i] = t;
    size.push_back(static_cast<std::int32_t>(within.size()));
    neighbors.resize((t + 1) * static_cast<std::size_t>(capacity), -1);
    fractions.resize(neighbors.size(), 0);
    for (std::size_t q = 0; q < within.size(); ++q) {
      const int j = within[q];
      const double f = f01(rng);
      neighbors[t * capacity + q] = j;
      fractions[t * capacity + q] = f;
      sx[j] += f * p.gx[i];
      sy[j] += f * p.gy[i];
      sz[j] += f * p.gz[i];
    }
  }
  const vrm::SolvedSlots slots{slot_of.data(), size.data(), neighbors.data(), fractions.data(),
                               capacity};
  double largest = 0;
  for (std::size_t j = 0; j < p.size(); ++j)
    largest = std::max({largest, std::abs(sx[j]), std::abs(sy[j]), std::abs(sz[j])});
  ASSERT_GT(largest, 0);
  for (std::size_t j = 0; j < p.size(); ++j) {
    double r[3];
    vrm::received(grid.view(), p.x.data(), p.y.data(), p.z.data(), p.gx.data(), p.gy.data(),
                  p.gz.data(), slots, static_cast<std::int32_t>(j), radius, r);
    EXPECT_NEAR(r[0], sx[j], 1e-14 * largest) << j;
    EXPECT_NEAR(r[1], sy[j], 1e-14 * largest) << j;
    EXPECT_NEAR(r[2], sz[j], 1e-14 * largest) << j;
    if (j >= lattice) EXPECT_TRUE(r[0] == 0 && r[1] == 0 && r[2] == 0) << j;
  }
}

}  // namespace
}  // namespace vortex
