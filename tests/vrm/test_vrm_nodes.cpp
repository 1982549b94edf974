// The free lattice nodes of a VRM owner (vortex/math/vrm_nodes.hpp, the walk the host's
// proposals and the device's masks share): the nodes taken are exactly those within R of the owner
// that no particle holds within the hole distance, found here by a search of its own over a wider
// box; a mask of them read back gives the same nodes in the same order.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "vortex/math/vrm_nodes.hpp"

namespace vortex {
namespace {

using Node = std::array<long, 3>;

// Nodes within `radius` of x, free of `points` within `hole`, by the lattice's indices ascending.
std::vector<Node> free_by_search(const double* x, double h, double radius, double hole,
                                 const std::vector<std::array<double, 3>>& points) {
  std::vector<Node> out;
  const long lo[3] = {static_cast<long>(std::floor((x[0] - 2 * radius) / h)),
                      static_cast<long>(std::floor((x[1] - 2 * radius) / h)),
                      static_cast<long>(std::floor((x[2] - 2 * radius) / h))};
  const long span = static_cast<long>(std::ceil(4 * radius / h)) + 2;
  for (long i = lo[0]; i <= lo[0] + span; ++i)
    for (long j = lo[1]; j <= lo[1] + span; ++j)
      for (long k = lo[2]; k <= lo[2] + span; ++k) {
        const double n[3] = {i * h, j * h, k * h};
        double d2 = 0;
        for (int a = 0; a < 3; ++a) d2 += (n[a] - x[a]) * (n[a] - x[a]);
        if (d2 > radius * radius * (1 - 1e-9)) continue;
        bool held = false;
        for (const auto& p : points) {
          double e2 = 0;
          for (int a = 0; a < 3; ++a) e2 += (p[a] - n[a]) * (p[a] - n[a]);
          held = held || e2 <= hole * hole;
        }
        if (!held) out.push_back({i, j, k});
      }
  return out;
}

TEST(VrmNodes, TheWalkTakesTheFreeNodesWithinRAndTheMaskGivesThemBack) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  const double h = 0.37;
  for (double radius_in_h : {1.5, 2.2, 3.0}) {
    const double radius = radius_in_h * h, hole = 0.5 * h;
    int nodes_seen = 0;
    for (int trial = 0; trial < 40; ++trial) {
      const double x[3] = {5 * u(rng), 5 * u(rng), 5 * u(rng)};
      // Particles on a jittered lattice around x, some of its nodes left empty.
      std::vector<std::array<double, 3>> points{{x[0], x[1], x[2]}};
      for (int i = -3; i <= 3; ++i)
        for (int j = -3; j <= 3; ++j)
          for (int k = -3; k <= 3; ++k) {
            if (u(rng) < -0.4) continue;
            const std::array<double, 3> p{(std::lround(x[0] / h) + i + 0.3 * u(rng)) * h,
                                          (std::lround(x[1] / h) + j + 0.3 * u(rng)) * h,
                                          (std::lround(x[2] / h) + k + 0.3 * u(rng)) * h};
            double d2 = 0;
            for (int a = 0; a < 3; ++a) d2 += (p[a] - x[a]) * (p[a] - x[a]);
            if (d2 <= radius * radius) points.push_back(p);  // those within R, as the owner's list
          }
      const std::vector<Node> expected = free_by_search(x, h, radius, hole, points);
      const vrm::NodeCube cube = vrm::node_cube(x[0], x[1], x[2], h, radius);
      ASSERT_LE(cube.words(), vrm::kMaxNodeWords);
      std::vector<Node> walked;
      std::uint64_t mask[vrm::kMaxNodeWords] = {};
      vrm::free_nodes(
          cube, x[0], x[1], x[2], h, radius, hole, static_cast<int>(points.size()),
          [&](int q, double* at) {
            for (int a = 0; a < 3; ++a) at[a] = points[q][a];
          },
          [&](int bit, long di, long dj, long dk, double nx, double ny, double nz) {
            const Node node{cube.ci + di, cube.cj + dj, cube.ck + dk};
            EXPECT_EQ(nx, node[0] * h);
            EXPECT_EQ(ny, node[1] * h);
            EXPECT_EQ(nz, node[2] * h);
            walked.push_back(node);
            mask[bit / 64] |= std::uint64_t{1} << (bit % 64);
          });
      EXPECT_EQ(walked, expected) << "R = " << radius_in_h << " h, trial " << trial;
      std::vector<Node> read;
      vrm::masked_nodes(cube, mask, h, [&](long di, long dj, long dk, double nx, double, double) {
        EXPECT_EQ(nx, (cube.ci + di) * h);
        read.push_back({cube.ci + di, cube.cj + dj, cube.ck + dk});
      });
      EXPECT_EQ(read, walked);
      nodes_seen += static_cast<int>(walked.size());
    }
    EXPECT_GT(nodes_seen, 40) << "free nodes found at R = " << radius_in_h << " h";
  }
}

}  // namespace
}  // namespace vortex
