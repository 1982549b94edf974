// Particle control beside a body with its decisions on the GPU: around a thin ellipsoid (the
// discoid's shape), with particles crowded next to its faces and its rim, the same removals,
// merges and strengths as with the host's wall test alone (which hands no strength through the
// body), the device deciding the candidates whose paths the wall's tangent planes clear.

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "support/same_control.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/wall.hpp"
#include "vortex/bodies/wall_nearby.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies {
namespace {

TEST(WallControlDevice, TheSameDecisionsAsTheHostsWallTest) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const Surface s = make_surface(ellipsoid(12, 0.5, 0.5, 0.05));
  const WallQueries wall(s);
  // Half the particles within 0.03 of the surface (above random points of random panels), half
  // in the box around it; the strengths' y components of one sign above the body's mid-plane and
  // of the other below it, a fifth of them weak.
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(0, 1);
  ParticleSet p;
  while (p.size() < 60000) {
    Vec3 x;
    if (p.size() % 2 == 0) {
      const Panel& panel = s.panels[static_cast<std::size_t>(u(rng) * s.size()) % s.size()];
      double a = u(rng), b = u(rng);
      if (a + b > 1) a = 1 - a, b = 1 - b;
      x = panel_point(panel, 1 - a - b, a, b) + (0.002 + 0.028 * u(rng)) * panel.normal;
    } else {
      x = {1.4 * u(rng) - 0.7, 1.4 * u(rng) - 0.7, 0.5 * u(rng) - 0.25};
    }
    if (wall.closest(x).distance < 0.002) continue;
    const double side = x.z > 0 ? 1 : -1, scale = p.size() % 5 == 0 ? 1e-9 : 1.0;
    p.push_back(x.x, x.y, x.z, 0.1 * scale * (u(rng) - 0.5), side * scale * (1 + u(rng)), 0, 0.02);
  }
  ParticleControlOptions o;
  o.spacing = 0.02;
  o.merge_distance = 0.5;
  o.blocked = [&wall](std::size_t, const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return wall.blocked({a[0], a[1], a[2]}, {b[0], b[1], b[2]});
  };
  KnownWallPoints scratch;
  o.wall_nearby = [&](const ParticleSet& q, double reach, WallNearby& out) {
    find_wall_nearby(wall, q, reach, Backend::Cuda, scratch, out);
  };
  const testing::HostAndDevice r = testing::control_on_both(p, o);
  EXPECT_GT(r.h.merged, 2000u);
  EXPECT_GT(r.h.removed, 5000u);
  EXPECT_GT(r.d.device_merges, 0u);
  EXPECT_GT(r.d.device_shares, 0u);
  testing::expect_same_control(r.host, r.device, r.h, r.d);
}

}  // namespace
}  // namespace vortex::bodies
