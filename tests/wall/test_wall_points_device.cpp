// The closest wall points of many points on the GPU (WallQueries::closest_within with
// Backend::Cuda) against the host's: the same points found or bounded, the same closest points and
// signed distances to rounding, for reaches that need the centroids' grid built again.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/wall.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies {
namespace {

TEST(WallPointsDevice, EqualTheHostsToRounding) {
  const Surface s = make_surface(ellipsoid(12, 0.5, 0.5, 0.05));
  const WallQueries wall(s);
  std::mt19937 rng(8);
  std::uniform_real_distribution<double> u(-0.8, 0.8);
  std::vector<double> x, y, z;
  for (int t = 0; t < 20000; ++t) {
    x.push_back(u(rng));
    y.push_back(u(rng));
    z.push_back(0.25 * u(rng));
  }
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (double reach : {0.03, 0.12, 0.3}) {  // the grid is built again for the wider ones
    std::vector<WallPoint> host, device;
    wall.closest_within(x, y, z, reach, Backend::Cpu, host);
    wall.closest_within(x, y, z, reach, Backend::Cuda, device);
    ASSERT_EQ(device.size(), x.size());
    int found = 0, bounded = 0, other_panel = 0;
    for (std::size_t k = 0; k < x.size(); ++k) {
      const WallPoint& h = host[k];
      const WallPoint& d = device[k];
      ASSERT_EQ(h.panel >= 0, d.panel >= 0) << k << " at reach " << reach;
      if (h.panel < 0) {  // both bounds of the distance above the reach
        ++bounded;
        EXPECT_GT(d.distance, reach);
        EXPECT_LE(d.distance, wall.closest({x[k], y[k], z[k]}).distance);
        continue;
      }
      ++found;
      other_panel += d.panel != h.panel;  // a tie at a shared edge or corner
      EXPECT_NEAR(d.distance, h.distance, 1e-12) << k;
      EXPECT_NEAR(d.point.x, h.point.x, 1e-12) << k;
      EXPECT_NEAR(d.point.y, h.point.y, 1e-12) << k;
      EXPECT_NEAR(d.point.z, h.point.z, 1e-12) << k;
      if (d.panel == h.panel) EXPECT_EQ(d.normal.z, h.normal.z) << k;
    }
    EXPECT_GT(found, 1000) << reach;
    if (reach < 0.1) EXPECT_GT(bounded, 1000) << reach;
    EXPECT_LT(other_panel, found / 100) << reach;
  }
}

}  // namespace
}  // namespace vortex::bodies
