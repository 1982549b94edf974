// Particle control with its decisions on the GPU (ParticleControlOptions::backend): the same
// removals, merges and strengths as the host's, in free space and beside a wall, with the
// particles the device cannot decide (crowded, near the wall) left to the host.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "support/draws.hpp"
#include "support/same_control.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/math/control_shares.hpp"
#include "vortex/particle_control.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

// A uniform cloud with a quarter of its particles weak and a dense cluster at its centre (more
// neighbours there than a device thread holds).
ParticleSet clustered_cloud(int n) {
  testing::Draws u(17, -1, 1);
  ParticleSet p;
  for (int i = 0; i < n; ++i) {
    const double scale = i % 4 == 0 ? 1e-9 : 1.0;
    const double r = i % 20 == 0 ? 0.02 : 1.0;  // one in twenty in the cluster
    p.push_back(r * u(), r * u(), r * u(), scale * u(), scale * u(), scale * u(), 0.05);
  }
  return p;
}

TEST(ParticleControlDevice, TheSameDecisionsAsTheHost) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p0 = clustered_cloud(60000);
  const Diagnostics d0 = compute_diagnostics(p0);
  ParticleControlOptions o;
  o.spacing = 0.06;
  o.merge_distance = 0.3;
  ParticleSet host = p0, device = p0;
  const ParticleControlStats h = control_particles(host, o);
  o.backend = Backend::Cuda;
  ParticleControlWorkspace workspace;
  ParticleControlStats d = control_particles(device, o, workspace);
  EXPECT_GT(h.removed, 10000u);
  EXPECT_GT(h.merged, 1000u);
  EXPECT_GT(d.host_shares, 0u);  // the cluster's crowded candidates
  EXPECT_GT(d.device_merges, 1000u);
  EXPECT_GT(d.device_shares, 10 * d.host_shares);
  testing::expect_same_control(host, device, h, d);
  const Diagnostics d1 = compute_diagnostics(device);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(d1.total_vorticity[k], d0.total_vorticity[k], 1e-12 * d0.sum_strength);
  // A second call on the same workspace (buffers kept) decides as the host does again.
  ParticleSet again = p0;
  d = control_particles(again, o, workspace);
  testing::expect_same_control(host, again, h, d);
}

// Two layers of opposite vorticity on either side of the plane z = 0 (a body's two faces), a third
// of the particles within 0.03 of it: no strength crosses it. The wall's distance is |z|, and the
// plane z = 0 the tangent plane of every particle with x < 0: the device clears their paths by it
// and leaves the others near the wall to the host.
TEST(ParticleControlDevice, AWallLeavesItsNeighboursToTheHost) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  testing::Draws u(23, -1, 1);
  ParticleSet p0;
  for (int i = 0; i < 50000; ++i) {
    const double z = i % 3 == 0 ? 0.002 + 0.014 * (1 + u()) : 0.01 + 0.5 * std::abs(u());
    const double side = i % 2 == 0 ? 1 : -1, scale = i % 5 == 0 ? 1e-9 : 1.0;
    p0.push_back(u(), u(), side * z, 0, side * scale * (1.5 + u()), 0, 0.05);
  }
  ParticleControlOptions o;
  o.spacing = 0.04;
  o.merge_distance = 0.3;
  o.blocked = [](std::size_t, const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return (a[2] > 0) != (b[2] > 0);
  };
  o.wall_nearby = [](const ParticleSet& p, double reach, WallNearby& wall) {
    wall.distance.resize(p.size());
    wall.plane.assign(p.size(), -1);
    wall.planes.clear();
    wall.body_scale = 2;
    for (std::size_t i = 0; i < p.size(); ++i) {
      wall.distance[i] = std::abs(p.z[i]);
      if (p.x[i] >= 0 || wall.distance[i] > reach) continue;
      wall.plane[i] = static_cast<std::int32_t>(wall.planes.size());
      wall.planes.push_back({p.x[i], p.y[i], 0, 0, 0, p.z[i] > 0 ? 1.0 : -1.0});
    }
  };
  const auto upper_total = [](const ParticleSet& q) {
    double total = 0;
    for (std::size_t i = 0; i < q.size(); ++i)
      if (q.z[i] > 0) total += q.gy[i];
    return total;
  };
  const testing::HostAndDevice r = testing::control_on_both(p0, o);
  EXPECT_GT(r.h.merged, 1000u);
  EXPECT_GT(r.d.host_shares, 100u);
  EXPECT_GT(r.d.host_merges, 100u);
  EXPECT_GT(r.d.device_merges, r.d.host_merges);
  EXPECT_GT(2 * r.d.device_shares, r.d.host_shares);
  testing::expect_same_control(r.host, r.device, r.h, r.d);
  EXPECT_NEAR(upper_total(r.device), upper_total(p0), 1e-12 * upper_total(p0));
}

// A uniform cloud with a cube of denser particles in it: its weak particles have between 65 and
// 256 receivers, more than the first pass's slots, and the device's second pass takes them all,
// with the host's decisions.
TEST(ParticleControlDevice, CrowdedCandidatesTakeTheSecondPass) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  testing::Draws u(29, -1, 1);
  ParticleSet p0;
  for (int i = 0; i < 40000; ++i) {
    const double r = i % 50 == 0 ? 0.1 : 1.0;  // 800 in the cube of side 0.2
    const double scale = i % 4 == 0 ? 1e-9 : 1.0;
    p0.push_back(r * u(), r * u(), r * u(), scale * u(), scale * u(), scale * u(), 0.05);
  }
  ParticleControlOptions o;
  o.spacing = 0.06;
  o.merge_distance = 0;  // removals alone: the weak quarter
  // Each weak particle's receivers within the first radius (1.5 h), counted by brute force.
  const double r2 = std::pow(o.absorb_radius * o.spacing, 2);
  std::size_t crowded = 0, past_second = 0;
  for (std::size_t i = 0; i < p0.size(); i += 4) {
    std::size_t m = 0;
    for (std::size_t j = 0; j < p0.size(); ++j) {
      if (j % 4 == 0) continue;  // weak: candidates, never receivers
      const double dx = p0.x[j] - p0.x[i], dy = p0.y[j] - p0.y[i], dz = p0.z[j] - p0.z[i];
      m += dx * dx + dy * dy + dz * dz <= r2;
    }
    crowded += m > static_cast<std::size_t>(control::kSlots);
    past_second += m > 256;
  }
  ASSERT_GT(crowded, 50u);
  ASSERT_EQ(past_second, 0u);
  const testing::HostAndDevice r = testing::control_on_both(p0, o);
  EXPECT_GT(r.h.removed, 9000u);
  EXPECT_EQ(r.d.host_shares, 0u);
  EXPECT_EQ(r.d.device_shares, r.d.removed + r.d.kept);
  testing::expect_same_control(r.host, r.device, r.h, r.d);
}

TEST(ParticleControlDevice, ACudaBackendWithoutADeviceSaysSo) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present";
  ParticleSet p = clustered_cloud(1000);
  ParticleControlOptions o;
  o.spacing = 0.06;
  o.backend = Backend::Cuda;
  EXPECT_THROW(control_particles(p, o), std::runtime_error);
}

}  // namespace
}  // namespace vortex
