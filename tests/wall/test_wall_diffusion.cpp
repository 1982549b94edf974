// Diffusion next to a wall (shedding.hpp): the layers of the shed profile hold the half-space
// heat kernel's mass and first moment; the image moments match the mirrored kernel by quadrature;
// and Stokes's first problem on a flat wall (the slip shed once, then the VRM with the image
// moments over 8 sub-steps) follows the exact first and second moments of the vorticity,
// 2 sqrt(nu t / pi) and 2 nu t per unit slip, within 12 and 20 %, and its first moment grows as
// sqrt(t), where shedding at a fixed height with the free-space VRM keeps the first moment at
// that height (no drift: no drag after the first step).

#include <gtest/gtest.h>

#include <cmath>

#include "vortex/bodies/shedding.hpp"
#include "vortex/vrm.hpp"

namespace vortex::bodies {
namespace {

TEST(WallDiffusion, ShedLayersHoldTheProfile) {
  const double s = 0.3;
  for (double layer : {0.05, 0.2, 0.5, 5.0}) {
    const std::vector<ShedLayer> l = heat_kernel_layers(s, layer, 1e-2);
    double mass = 0, moment = 0;
    for (std::size_t k = 0; k < l.size(); ++k) {
      mass += l[k].fraction;
      moment += l[k].fraction * l[k].height;
      EXPECT_GT(l[k].height, layer * k) << "layer " << k;
      if (k + 1 < l.size()) {
        EXPECT_LT(l[k].height, layer * (k + 1));
        // The layer's share: the difference of erfc(y / (2 sqrt(nu t))) at its ends.
        EXPECT_NEAR(
            l[k].fraction,
            std::erfc(layer * k / (s * M_SQRT2)) - std::erfc(layer * (k + 1) / (s * M_SQRT2)),
            1e-14);
      }
    }
    EXPECT_NEAR(mass, 1, 1e-15);
    EXPECT_NEAR(moment, s * std::sqrt(2 / M_PI), 1e-13) << "layer " << layer;
  }
  // One layer thicker than the profile: a single particle at its first moment.
  const auto one = heat_kernel_layers(s, 10 * s, 1e-2);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_NEAR(one[0].height, s * std::sqrt(2 / M_PI), 1e-14);
  EXPECT_THROW(heat_kernel_layers(0, 1, 1e-2), std::invalid_argument);
  EXPECT_THROW(heat_kernel_layers(1, 1, 0), std::invalid_argument);
}

TEST(WallDiffusion, ImageMomentsMatchTheMirroredKernel) {
  const double s2 = 0.09, s = std::sqrt(s2);
  const Vec3 n = normalized(Vec3{1, 2, -2});
  for (double y : {0.0, 0.1, 0.3, 0.6, 1.5}) {
    // Moments of |Y| - y, Y ~ N(y, s2), by the midpoint rule on [-10 s, 10 s] around y.
    double m1 = 0, m2 = 0;
    const int steps = 200000;
    const double a = y - 10 * s, dy = 20 * s / steps;
    for (int k = 0; k < steps; ++k) {
      const double v = a + (k + 0.5) * dy;
      const double w = std::exp(-(v - y) * (v - y) / (2 * s2)) / (s * std::sqrt(2 * M_PI)) * dy;
      m1 += w * (std::abs(v) - y);
      m2 += w * (std::abs(v) - y) * (std::abs(v) - y);
    }
    EXPECT_NEAR(wall_image_drift(y, s2), m1, 1e-9) << "y = " << y;
    const VrmMoments m = wall_image_moments(y, n, s2);
    const double nn[6] = {n.x * n.x, n.y * n.y, n.z * n.z, n.x * n.y, n.x * n.z, n.y * n.z};
    const double identity[6] = {1, 1, 1, 0, 0, 0};
    for (int k = 0; k < 6; ++k)
      EXPECT_NEAR(m.second[k], s2 * identity[k] + (m2 - s2) * nn[k], 1e-9) << "y = " << y;
    EXPECT_NEAR(m.first[0], m1 * n.x, 1e-9);
    EXPECT_NEAR(m.first[1], m1 * n.y, 1e-9);
    EXPECT_NEAR(m.first[2], m1 * n.z, 1e-9);
  }
  EXPECT_NEAR(wall_image_drift(0, s2), s * std::sqrt(2 / M_PI), 1e-15);
  EXPECT_LT(wall_image_drift(8 * s, s2), 1e-15 * s);
}

// First and second moments of the vorticity's height above the wall y = wall, per unit of it.
std::array<double, 2> height_moments(const ParticleSet& p, double wall) {
  double total = 0, m1 = 0, m2 = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    total += p.gz[i];
    m1 += p.gz[i] * (p.y[i] - wall);
    m2 += p.gz[i] * (p.y[i] - wall) * (p.y[i] - wall);
  }
  return {m1 / total, m2 / total};
}

TEST(WallDiffusion, StokesFirstProblem) {
  // Wall y = -h/2, unit slip on an 8 x 8 patch of columns h apart between the VRM's lattice
  // nodes, h = 1,
  // sub-steps with 2 nu t = h^2 / 8 (h = sqrt(8 nu dt), t = dt / 2).
  const double h = 1, wall = -0.5 * h, s2 = h * h / 8, nu = 1, tau = s2 / (2 * nu);
  VrmOptions o;
  o.spacing = h;
  o.blocked = [&](std::size_t, const std::array<double, 3>&, const std::array<double, 3>& q) {
    return q[1] < wall;
  };
  o.moments = [&](std::size_t, const std::array<double, 3>& x, double two_nu_dt, VrmMoments& m) {
    m = wall_image_moments(x[1] - wall, {0, 1, 0}, two_nu_dt);
    return true;
  };
  auto shed = [&](double offset) {
    ParticleSet p;
    const std::vector<ShedLayer> layers = offset > 0 ? std::vector<ShedLayer>{{offset, 1.0}}
                                                     : heat_kernel_layers(std::sqrt(s2), h, 1e-2);
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 8; ++k)
        for (const ShedLayer& l : layers)
          p.push_back((i + 0.5) * h, wall + l.height, (k + 0.5) * h, 0, 0, l.fraction * h * h, h);
    return p;
  };
  ParticleSet p = shed(0);
  const double total = 64 * h * h;
  std::vector<double> first;
  for (int n = 1; n <= 8; ++n) {
    if (n > 1) vrm_diffuse(p, nu, tau, o);
    const double t = n * tau;
    const auto m = height_moments(p, wall);
    first.push_back(m[0]);
    // The first sub-step sheds one particle per column at the profile's first moment; the
    // VRM's lattice then has no node between the wall and it, which costs the next sub-steps'
    // spread a little.
    EXPECT_NEAR(m[0] / (2 * std::sqrt(nu * t / M_PI)), 1, n == 1 ? 1e-12 : 0.12)
        << "sub-step " << n;
    if (n > 1) EXPECT_NEAR(m[1] / (2 * nu * t), 1, 0.2) << "sub-step " << n;
    double sum = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      EXPECT_GE(p.y[i], wall) << "particle " << i;
      sum += p.gz[i];
    }
    EXPECT_NEAR(sum, total, 1e-10 * total);
  }
  // Shed at one height with free-space moments, the first moment stays at that height.
  ParticleSet q = shed(h);
  VrmOptions free = o;
  free.moments = nullptr;
  // From 2 tau to 8 tau the first moment doubles (sqrt(t)).
  EXPECT_NEAR(first[7] / first[1], 2, 0.1);
  for (int n = 2; n <= 8; ++n) vrm_diffuse(q, nu, tau, free);
  EXPECT_NEAR(height_moments(q, wall)[0], h, 1e-9);
}

}  // namespace
}  // namespace vortex::bodies
