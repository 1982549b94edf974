// The VRM's first round on the GPU (VrmOptions::backend) against the host's: the same particles,
// the same insertions and the same strengths to rounding, in free space and next to a wall (the
// owners within R/2 of it stay on the host; those beyond, with the image moments, go to the
// device, leaving out the particles inside the body), and the device solving most owners and
// finding the free nodes of those without a solution.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "support/vrm_wall.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/solver.hpp"
#include "vortex/vrm.hpp"

namespace vortex {
namespace {

// A Gaussian blob of vorticity on a jittered lattice of spacing 1, with strengths in all three
// directions, and a few lone particles that need insertions.
ParticleSet jittered_blob(double radius, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  ParticleSet p;
  const int n = static_cast<int>(std::ceil(radius));
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int k = -n; k <= n; ++k) {
        const double x = i + jitter(rng), y = j + jitter(rng), z = k + jitter(rng);
        const double r2 = x * x + y * y + z * z;
        if (r2 > radius * radius) continue;
        const double g = std::exp(-r2 / 8);
        p.push_back(x, y, z, 0.3 * g * jitter(rng), 0.2 * g, g, 0.8);
      }
  for (int k = 0; k < 5; ++k) p.push_back(3 * radius + 4 * k, 0.3, -0.2, 0, 0, 0.5, 0.8);
  return p;
}

void expect_same(const ParticleSet& host, const ParticleSet& device, const VrmStats& hs,
                 const VrmStats& ds) {
  EXPECT_EQ(hs.inserted, ds.inserted);
  EXPECT_EQ(hs.diffused, ds.diffused);
  EXPECT_EQ(hs.kept, ds.kept);
  ASSERT_EQ(host.size(), device.size());
  double largest = 0;
  for (std::size_t i = 0; i < host.size(); ++i)
    largest = std::max({largest, std::abs(host.gx[i]), std::abs(host.gy[i]), std::abs(host.gz[i])});
  for (std::size_t i = 0; i < host.size(); ++i) {
    EXPECT_EQ(host.x[i], device.x[i]) << i;
    EXPECT_EQ(host.y[i], device.y[i]) << i;
    EXPECT_EQ(host.z[i], device.z[i]) << i;
    EXPECT_NEAR(host.gx[i], device.gx[i], 1e-12 * largest) << i;
    EXPECT_NEAR(host.gy[i], device.gy[i], 1e-12 * largest) << i;
    EXPECT_NEAR(host.gz[i], device.gz[i], 1e-12 * largest) << i;
  }
  const Diagnostics a = compute_diagnostics(host), b = compute_diagnostics(device);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(a.total_vorticity[k], b.total_vorticity[k], 1e-13 * a.sum_strength) << k;
}

// One VRM step of `start` next to the plane wall z = 0 on the host and with the device.
struct NextToTheWall {
  ParticleSet host, device;
  VrmStats hs, ds;
};
NextToTheWall next_to_the_wall(const ParticleSet& start) {
  const VrmOptions host = testing::plane_wall_options(true);
  VrmOptions device = host;
  device.backend = Backend::Cuda;
  NextToTheWall r{start, start, {}, {}};
  r.hs = vrm_diffuse(r.host, 1, 0.125, host);
  r.ds = vrm_diffuse(r.device, 1, 0.125, device);
  return r;
}

TEST(VrmDevice, FreeSpaceEqualsTheHostToRounding) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet start = jittered_blob(8, 21);
  VrmOptions host;
  host.spacing = 1;
  VrmOptions device = host;
  device.backend = Backend::Cuda;
  ParticleSet a = start, b = start;
  const VrmStats hs = vrm_diffuse(a, 1, 0.125, host);
  VrmWorkspace workspace;
  const VrmStats ds = vrm_diffuse(b, 1, 0.125, device, workspace);
  EXPECT_EQ(hs.device_solved, 0u);
  EXPECT_GT(ds.device_solved, start.size() * 3 / 5);  // 66 %: the blob's edge needs insertions
  EXPECT_GT(ds.inserted, 0u);
  EXPECT_GE(ds.device_later, 5u);  // the later rounds' owners too: the lone particles at least
  // The free nodes of the owners without a solution found on the device (the lone ones at least).
  EXPECT_EQ(hs.device_proposed, 0u);
  EXPECT_GE(ds.device_proposed, 5u);
  expect_same(a, b, hs, ds);
  // Again in the same workspace, from the result: the device's buffers are reused.
  const VrmStats hs2 = vrm_diffuse(a, 1, 0.125, host);
  const VrmStats ds2 = vrm_diffuse(b, 1, 0.125, device, workspace);
  expect_same(a, b, hs2, ds2);
}

TEST(VrmDevice, NextToAWallEqualsTheHostToRounding) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ParticleSet start = jittered_blob(6, 22);
  for (double& z : start.z) z += 6.6;  // the lowest layer about 0.4 above the wall z = 0
  const NextToTheWall r = next_to_the_wall(start);
  EXPECT_GT(r.ds.device_solved, start.size() / 2);
  EXPECT_LT(r.ds.device_solved, r.hs.diffused);  // the owners within R/2 of it stay on the host
  expect_same(r.host, r.device, r.hs, r.ds);
  for (double z : r.device.z) EXPECT_GE(z, 0);
}

// The owners beyond the wall's reach (wall_far) go to the device before the wall is prepared, the
// others it can take after: the same result as the host's, and as one batch.
TEST(VrmDevice, OwnersBeyondTheWallFirstEqualTheHost) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ParticleSet start = jittered_blob(6, 24);
  for (double& z : start.z) z += 6.6;
  VrmOptions first = testing::plane_wall_options(true);
  first.backend = Backend::Cuda;
  first.wall_far = [](const std::array<double, 3>& p, double) { return p[2] > 3.5; };
  int prepares = 0;
  first.prepare_wall = [&](const ParticleSet&, double) { ++prepares; };
  ParticleSet two_batches = start;
  VrmWorkspace workspace;
  const VrmStats ds = vrm_diffuse(two_batches, 1, 0.125, first, workspace);
  const NextToTheWall r = next_to_the_wall(start);
  EXPECT_EQ(prepares, 1);
  EXPECT_GT(ds.device_far, start.size() / 3);
  EXPECT_EQ(r.ds.device_far, 0u);
  // The first round's owners on the device alike; the later rounds' only with the far batch.
  EXPECT_EQ(r.ds.device_later, 0u);
  EXPECT_GT(ds.device_later, 0u);
  EXPECT_EQ(ds.device_solved - ds.device_later, r.ds.device_solved);
  // Free nodes from the device in both: next to the wall too, where no particle lies inside the
  // body, the owners' lists hold every particle within R.
  EXPECT_GT(ds.device_proposed, 0u);
  EXPECT_GT(r.ds.device_proposed, 0u);
  expect_same(r.host, two_batches, r.hs, ds);
  // Again in the same workspace: the batches' storage is reused.
  ParticleSet again = r.host, host = r.host;
  const VrmStats ds2 = vrm_diffuse(again, 1, 0.125, first, workspace);
  const VrmStats hs2 = vrm_diffuse(host, 1, 0.125, testing::plane_wall_options(true));
  expect_same(host, again, hs2, ds2);
}

// Particles inside the body (below the wall, without strength) are no one's neighbours: the owners
// between R/2 and R from the wall, solved on the device, leave them out as the host does.
TEST(VrmDevice, ParticlesInsideTheBodyAreNoNeighbours) {
  // A jittered slab on the wall: its lowest layer within R/2 of it (the host's), the next between
  // R/2 and R (the device's, with fluid neighbours below), strengths falling away from its middle;
  // under it a layer of particles inside the body, within R of the second layer's owners.
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> jitter(-0.15, 0.15), lift(-0.1, 0.1);
  ParticleSet start;
  for (int i = -5; i <= 5; ++i)
    for (int j = -5; j <= 5; ++j)
      for (int k = 0; k < 6; ++k) {
        const double g = std::exp(-(i * i + j * j + (k - 2) * (k - 2)) / 16.0);
        start.push_back(i + jitter(rng), j + jitter(rng), 0.25 + k + lift(rng), 0.2 * g, -0.3 * g,
                        g, 0.8);
      }
  const std::size_t fluid = start.size();
  for (int i = -6; i <= 6; ++i)
    for (int j = -6; j <= 6; ++j) start.push_back(i, j, -0.1, 0, 0, 0, 0.8);
  const double radius = 1.5;  // R = max(3.5 sqrt(nu dt), 1.5 h)
  std::size_t reached = 0;    // owners between R/2 and R from the wall with one of them within R
  for (std::size_t i = 0; i < fluid; ++i) {
    if (!(start.z[i] > 0.5 * radius && start.z[i] <= radius)) continue;
    for (std::size_t j = fluid; j < start.size(); ++j) {
      const double dx = start.x[j] - start.x[i], dy = start.y[j] - start.y[i],
                   dz = start.z[j] - start.z[i];
      if (dx * dx + dy * dy + dz * dz <= radius * radius) {
        ++reached;
        break;
      }
    }
  }
  ASSERT_EQ(reached, 121u);  // the whole second layer
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const NextToTheWall r = next_to_the_wall(start);
  EXPECT_NEAR(r.hs.radius, radius, 1e-12);
  // The inner owners of layers 2 to 5 alone are 9 x 9 x 3 = 243 (the top layer's have no
  // solution without insertions): more means owners of the second layer too.
  EXPECT_GT(r.ds.device_solved, 243u + 40u);
  // The top layer's free nodes come from the device; the second layer's owners, whose lists left
  // out the particles inside, propose on the host (which counts them): the same insertions.
  EXPECT_GT(r.ds.device_proposed, 0u);
  expect_same(r.host, r.device, r.hs, r.ds);
  for (std::size_t j = fluid; j < start.size(); ++j)  // nothing handed to the particles inside
    EXPECT_TRUE(r.device.gx[j] == 0 && r.device.gy[j] == 0 && r.device.gz[j] == 0) << j;
}

}  // namespace
}  // namespace vortex
