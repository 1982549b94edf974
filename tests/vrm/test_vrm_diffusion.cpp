// VRM diffusion of a Gaussian blob: the second moment grows by 2 nu t per dimension and the total
// vorticity is conserved to rounding; particles are inserted where needed; the result does not
// depend on the thread count, next to a wall too, with or without the wall-distance pruning.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>
#include <stdexcept>

#include "support/blob_spread.hpp"
#include "support/message_of.hpp"
#include "support/reference.hpp"
#include "support/vrm_wall.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/particle_control.hpp"
#include "vortex/vrm.hpp"

namespace vortex {
namespace {

// A Gaussian blob of vorticity along z on the lattice h Z^3: omega = exp(-|x|^2 / (2 s^2)).
ParticleSet gaussian_blob(double h, double s, double extent) {
  ParticleSet p;
  const int n = static_cast<int>(std::ceil(extent * s / h));
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int k = -n; k <= n; ++k) {
        const double x = i * h, y = j * h, z = k * h, r2 = x * x + y * y + z * z;
        if (r2 > extent * extent * s * s) continue;
        p.push_back(x, y, z, 0, 0, std::exp(-r2 / (2 * s * s)) * h * h * h, h);
      }
  return p;
}

TEST(VrmDiffusion, GaussianBlobSpreadsAtTwoNuTAndConservesVorticity) {
  const double h = 1, nu = 1, dt = 0.125;  // h^2 = 8 nu dt, as in Stock & Gharakhani 2008
  ParticleSet p = gaussian_blob(h, 1.5, 3.5);
  const auto m2_start = z_vorticity_second_moments(p);
  const Diagnostics d0 = compute_diagnostics(p);
  VrmOptions vrm;
  vrm.spacing = h;
  ParticleControlOptions control;
  control.spacing = h;
  const std::size_t n0 = p.size();
  const int steps = 12;
  std::size_t inserted = 0;
  for (int s = 0; s < steps; ++s) {
    const VrmStats stats = vrm_diffuse(p, nu, dt, vrm);
    EXPECT_LT(stats.max_residual, 1e-9);
    inserted += stats.inserted;
    control_particles(p, control);
  }
  EXPECT_GT(inserted, 0u);
  EXPECT_GT(p.size(), n0);
  // Measured: within 1e-4 (only particles too weak to insert neighbours for miss the moments).
  testing::expect_moments_grew_by(p, m2_start, 2 * nu * dt * steps);
  const Diagnostics d = compute_diagnostics(p);
  EXPECT_NEAR(d.total_vorticity[2] / d0.total_vorticity[2], 1.0, 1e-13);
  EXPECT_NEAR(d.linear_impulse[0], 0.0, 1e-12 * d0.sum_strength);
}

TEST(VrmDiffusion, IsolatedParticleGetsALatticeOfNeighbours) {
  ParticleSet p;
  p.push_back(0.1, -0.2, 0.05, 0, 0, 1, 0.5);
  VrmOptions vrm;
  vrm.spacing = 1;
  const double nu = 0.1, dt = 0.5;
  const VrmStats stats = vrm_diffuse(p, nu, dt, vrm);
  EXPECT_GE(stats.inserted, 6u);
  EXPECT_EQ(stats.diffused, 1u);
  EXPECT_EQ(p.size(), 1 + stats.inserted);
  double m0 = 0, mx = 0, mxx = 0, mxy = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_GE(p.gz[i], -1e-15);
    EXPECT_EQ(p.sigma[i], 0.5);
    const double x = p.x[i] - 0.1, y = p.y[i] + 0.2;
    m0 += p.gz[i];
    mx += p.gz[i] * x;
    mxx += p.gz[i] * x * x;
    mxy += p.gz[i] * x * y;
  }
  EXPECT_NEAR(m0, 1, 1e-15);
  EXPECT_NEAR(mx, 0, 1e-12);
  EXPECT_NEAR(mxx, 2 * nu * dt, 1e-12);
  EXPECT_NEAR(mxy, 0, 1e-12);
}

TEST(VrmDiffusion, ResultDoesNotDependOnThreadCount) {
  const ParticleSet start = gaussian_blob(1, 2.0, 3);  // large enough to run in parallel
  VrmOptions vrm;
  vrm.spacing = 1;
  ParticleSet one = start, two = start;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  vrm_diffuse(one, 1, 0.125, vrm);
  omp_set_num_threads(std::max(2, saved));
  vrm_diffuse(two, 1, 0.125, vrm);
  omp_set_num_threads(saved);
  ASSERT_EQ(one.size(), two.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one.x[i], two.x[i]);
    EXPECT_EQ(one.gz[i], two.gz[i]);
  }
}

using testing::plane_wall_options;

// A wall at z = 0 (the body below it): a blob whose lower half lies within a few h of it.
ParticleSet blob_on_wall() {
  ParticleSet p = gaussian_blob(1, 2.0, 3);
  for (double& z : p.z) z += 0.4 + 6.0;  // the lowest layer 0.4 h above the wall
  return p;
}

TEST(VrmDiffusion, WallResultDoesNotDependOnThreadCountOrTheDistanceHook) {
  const ParticleSet start = blob_on_wall();
  ParticleSet one = start, two = start, tested = start;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const VrmStats s1 = vrm_diffuse(one, 1, 0.125, plane_wall_options(true));
  omp_set_num_threads(std::max(2, saved));
  VrmWorkspace workspace;
  vrm_diffuse(two, 1, 0.125, plane_wall_options(true), workspace);
  // Every neighbour through the blocked hook: the distances only skip tests that say no.
  vrm_diffuse(tested, 1, 0.125, plane_wall_options(false), workspace);
  omp_set_num_threads(saved);
  EXPECT_GT(s1.inserted, 0u);
  ASSERT_EQ(one.size(), two.size());
  ASSERT_EQ(one.size(), tested.size());
  for (std::size_t i = 0; i < one.size(); ++i) {
    EXPECT_GE(one.z[i], 0);
    EXPECT_EQ(one.x[i], two.x[i]);
    EXPECT_EQ(one.z[i], two.z[i]);
    EXPECT_EQ(one.gz[i], two.gz[i]);
    EXPECT_EQ(one.z[i], tested.z[i]);
    EXPECT_EQ(one.gz[i], tested.gz[i]);
  }
}

// The wall hooks' preparation runs once a call, before any of them is asked; its answers then
// give the same result as hooks ready from the start (and wall_far changes nothing on the host).
TEST(VrmDiffusion, PrepareWallRunsOnceBeforeTheWallIsAsked) {
  const ParticleSet start = blob_on_wall();
  ParticleSet ready = start, prepared = start;
  vrm_diffuse(ready, 1, 0.125, plane_wall_options(true));
  VrmOptions vrm = plane_wall_options(true);
  int prepares = 0;
  std::atomic<int> early{0};
  std::size_t prepared_for = 0;
  double prepared_dt = 0;
  vrm.prepare_wall = [&](const ParticleSet& p, double dt) {
    ++prepares;
    prepared_for = p.size();
    prepared_dt = dt;
  };
  const VrmOptions plain = plane_wall_options(true);
  vrm.wall_distance = [&](std::size_t i, const std::array<double, 3>& p, double reach) {
    if (prepares == 0) ++early;
    return plain.wall_distance(i, p, reach);
  };
  vrm.moments = [&](std::size_t i, const std::array<double, 3>& p, double s2, VrmMoments& m) {
    if (prepares == 0) ++early;
    return plain.moments(i, p, s2, m);
  };
  vrm.wall_far = [](const std::array<double, 3>& p, double) { return p[2] > 3.5; };
  vrm_diffuse(prepared, 1, 0.125, vrm);
  EXPECT_EQ(prepares, 1);
  EXPECT_EQ(early.load(), 0);
  EXPECT_EQ(prepared_for, start.size());
  EXPECT_EQ(prepared_dt, 0.125);
  ASSERT_EQ(ready.size(), prepared.size());
  for (std::size_t i = 0; i < ready.size(); ++i) {
    EXPECT_EQ(ready.z[i], prepared.z[i]);
    EXPECT_EQ(ready.gx[i], prepared.gx[i]);
    EXPECT_EQ(ready.gz[i], prepared.gz[i]);
  }
}

TEST(VrmDiffusion, ZeroViscosityChangesNothingAndBadOptionsThrow) {
  ParticleSet p = gaussian_blob(1, 1, 2);
  const ParticleSet start = p;
  VrmOptions vrm;
  vrm.spacing = 1;
  vrm_diffuse(p, 0, 0.1, vrm);
  EXPECT_EQ(p.gz, start.gz);
  VrmOptions bad;
  EXPECT_THROW(vrm_diffuse(p, 1, 0.1, bad), std::invalid_argument);  // no spacing
  EXPECT_THROW(vrm_diffuse(p, -1, 0.1, vrm), std::invalid_argument);
  bad.spacing = -1e-20;
  EXPECT_EQ(testing::message_of<std::invalid_argument>([&] { vrm_diffuse(p, 1, 0.1, bad); }),
            "VRM: spacing h must be positive, got -1e-20");
  ParticleControlOptions control;
  control.spacing = -1e-20;
  EXPECT_EQ(testing::message_of<std::invalid_argument>([&] { control_particles(p, control); }),
            "particle control: spacing must be positive, got -1e-20");
}

}  // namespace
}  // namespace vortex
