// Seeded particle generators: reproducibility, counts, and the properties each case promises.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "support/same_particles.hpp"
#include "vortex/generators.hpp"
#include "vortex/solver.hpp"

using namespace vortex;

namespace {

using vortex::testing::expect_same_particles;

constexpr double kPi = 3.14159265358979323846;

double gamma_norm(const ParticleSet& p, std::size_t i) {
  return std::sqrt(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]);
}

// Impulse (1/2) sum x x Gamma.
std::array<double, 3> impulse(const ParticleSet& p) {
  std::array<double, 3> I{0, 0, 0};
  for (std::size_t i = 0; i < p.size(); ++i) {
    I[0] += 0.5 * (p.y[i] * p.gz[i] - p.z[i] * p.gy[i]);
    I[1] += 0.5 * (p.z[i] * p.gx[i] - p.x[i] * p.gz[i]);
    I[2] += 0.5 * (p.x[i] * p.gy[i] - p.y[i] * p.gx[i]);
  }
  return I;
}

}  // namespace

TEST(RandomCube, SeededAndReproducible) {
  const ParticleSet a = random_cube(1000, 1);
  expect_same_particles(a, random_cube(1000, 1));
  EXPECT_NE(a.x, random_cube(1000, 2).x);
  // The draws do not depend on the standard library: positions are the top 53 bits of
  // mt19937_64's outputs for seed 1 (2469588189546311528, 2516265689700432462, ...).
  EXPECT_EQ(a.x[0], 0.13387664401253263);
  EXPECT_EQ(a.y[0], 0.13640703636619722);
  EXPECT_EQ(a.z[0], 0.45121490384453811);
  // A prefix of a larger set is the smaller set, apart from sigma.
  const ParticleSet b = random_cube(2000, 1);
  EXPECT_EQ(std::vector<double>(b.x.begin(), b.x.begin() + 1000), a.x);
  EXPECT_TRUE(random_cube(0, 1).size() == 0);
}

TEST(RandomCube, ThePapersCase) {
  const std::size_t n = 20000;
  const ParticleSet p = random_cube(n, 7);
  ASSERT_EQ(p.size(), n);
  const double sigma = std::pow(static_cast<double>(n), -1.0 / 3.0);
  double mean_norm = 0;
  std::array<double, 3> mean_direction{0, 0, 0}, mean_position{0, 0, 0};
  for (std::size_t i = 0; i < n; ++i) {
    for (double c : {p.x[i], p.y[i], p.z[i]}) {
      EXPECT_GE(c, 0);
      EXPECT_LT(c, 1);
    }
    EXPECT_EQ(p.sigma[i], sigma);
    const double g = gamma_norm(p, i);
    EXPECT_LE(g, 1.5 * sigma * sigma);
    mean_norm += g / n;
    mean_direction[0] += p.gx[i] / g / n;
    mean_direction[1] += p.gy[i] / g / n;
    mean_direction[2] += p.gz[i] / g / n;
    mean_position[0] += p.x[i] / n;
    mean_position[1] += p.y[i] / n;
    mean_position[2] += p.z[i] / n;
  }
  // |Gamma| uniform in [0, 1.5 sigma^2]: mean 0.75 sigma^2 (standard error 0.3% here).
  EXPECT_NEAR(mean_norm / (0.75 * sigma * sigma), 1, 0.015);
  // Isotropic directions and uniform positions (standard errors about 0.004 and 0.002).
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(mean_direction[c], 0, 0.02);
    EXPECT_NEAR(mean_position[c], 0.5, 0.01);
  }
}

TEST(VortexRing, CountsAndGeometry) {
  RingOptions o;
  o.layers = 2;
  const ParticleSet p = vortex_ring(o);
  const double h = o.core_radius / 2.5;
  const int stations = static_cast<int>(std::lround(2 * kPi * o.radius / h));
  ASSERT_EQ(p.size(), static_cast<std::size_t>(stations) * 19);
  EXPECT_EQ(ring_particle_count(o), p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_NEAR(p.sigma[i], o.overlap * h, 1e-15);
    // Every particle lies in the core: within a of the circle of radius R.
    const double from_axis = std::hypot(p.x[i], p.y[i]);
    EXPECT_LE(std::hypot(from_axis - o.radius, p.z[i]), o.core_radius);
  }
  expect_same_particles(p, vortex_ring(o));
}

TEST(VortexRing, CirculationOfEveryCrossSection) {
  RingOptions o;
  o.circulation = 2.5;
  o.layers = 3;
  o.stations = 40;
  const ParticleSet p = vortex_ring(o);
  const std::size_t per_section = 1 + 3 * 3 * 4;
  ASSERT_EQ(p.size(), 40 * per_section);
  // A particle's strength is its circulation times the arc length 2 pi r / stations it stands for.
  for (int s = 0; s < 40; ++s) {
    double circulation = 0;
    for (std::size_t k = 0; k < per_section; ++k) {
      const std::size_t i = s * per_section + k;
      circulation += gamma_norm(p, i) * 40 / (2 * kPi * std::hypot(p.x[i], p.y[i]));
    }
    EXPECT_NEAR(circulation, o.circulation, 1e-12);
  }
  // The vector strengths of a closed ring sum to zero.
  double sx = 0, sy = 0, sz = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    sx += p.gx[i];
    sy += p.gy[i];
    sz += p.gz[i];
  }
  EXPECT_NEAR(std::hypot(sx, sy, sz), 0, 1e-12);
}

TEST(VortexRing, ImpulseAlongTheAxisForAnyOrientation) {
  RingOptions o;
  o.radius = 2;
  o.core_radius = 0.3;
  o.circulation = 1.5;
  o.center = {1, -2, 3};
  o.axis = {1, 2, -2};  // |axis| = 3
  const ParticleSet p = vortex_ring(o);
  ParticleSet centered = p;
  for (std::size_t i = 0; i < p.size(); ++i) {
    centered.x[i] -= o.center[0];
    centered.y[i] -= o.center[1];
    centered.z[i] -= o.center[2];
  }
  const auto I = impulse(centered);
  // Thin-ring impulse pi R^2 Gamma along +axis; the core's finite size changes it by O(a^2/R^2).
  const double expected = kPi * o.radius * o.radius * o.circulation;
  EXPECT_NEAR(I[0], expected * 1 / 3.0, 0.03 * expected);
  EXPECT_NEAR(I[1], expected * 2 / 3.0, 0.03 * expected);
  EXPECT_NEAR(I[2], expected * -2 / 3.0, 0.03 * expected);
  // Without the shift the impulse is the same, since the strengths sum to zero.
  const auto J = impulse(p);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(J[c], I[c], 1e-9);
}

TEST(VortexRing, MovesTowardPlusAxis) {
  RingOptions o;
  o.layers = 1;
  o.axis = {0, 0, 1};
  const ParticleSet p = vortex_ring(o);
  SolverOptions options;
  options.method = Method::Direct;
  options.backend = Backend::Cpu;
  const VelocityField f = Solver(options).evaluate(p, false);
  double uz = 0, ur = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    uz += f.u[2][i] / p.size();
    ur += (f.u[0][i] * p.x[i] + f.u[1][i] * p.y[i]) / std::hypot(p.x[i], p.y[i]) / p.size();
  }
  EXPECT_GT(uz, 0);
  EXPECT_LT(std::abs(ur), 0.1 * uz);  // a ring translates; it hardly grows or shrinks
}

TEST(VortexRing, OptionsForACount) {
  for (std::size_t n : {1u, 100u, 1000u, 20000u, 100000u, 1000000u}) {
    const RingOptions o = ring_options_for_count(n);
    const std::size_t per_section = 1 + 3 * o.layers * (o.layers + 1);
    const std::size_t count = ring_particle_count(o);
    EXPECT_EQ(count, static_cast<std::size_t>(o.stations) * per_section);
    if (o.stations > 3) {
      EXPECT_LE(std::abs(static_cast<double>(count) - static_cast<double>(n)),
                per_section / 2.0 + 0.5)
          << n;
    }
    EXPECT_EQ(vortex_ring(o).size(), count);
  }
  EXPECT_GT(ring_options_for_count(1000000).layers, ring_options_for_count(1000).layers);
}

TEST(VortexRing, RejectsBadOptions) {
  RingOptions o;
  o.core_radius = 2;
  EXPECT_THROW(vortex_ring(o), std::invalid_argument);
  o = RingOptions{};
  o.axis = {0, 0, 0};
  EXPECT_THROW(vortex_ring(o), std::invalid_argument);
  o = RingOptions{};
  o.layers = -1;
  EXPECT_THROW(vortex_ring(o), std::invalid_argument);
}

TEST(PlummerSphere, HalfMassRadiusMatchesTheory) {
  const std::size_t n = 200000;
  PlummerOptions o;
  o.scale_radius = 2;
  const ParticleSet p = plummer_sphere(n, 5, o);
  ASSERT_EQ(p.size(), n);
  std::vector<double> r(n);
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = std::sqrt(p.x[i] * p.x[i] + p.y[i] * p.y[i] + p.z[i] * p.z[i]);
    EXPECT_LE(r[i], o.max_radius * o.scale_radius);
  }
  std::nth_element(r.begin(), r.begin() + n / 2, r.end());
  const double theory = plummer_half_mass_radius(o);
  // Untruncated: a / sqrt(2^(2/3) - 1) = 1.3048 a; the truncation at 20 a moves it by 0.3%.
  EXPECT_NEAR(theory / o.scale_radius, 1.3048, 0.006);
  EXPECT_NEAR(r[n / 2] / theory, 1, 0.02);
}

TEST(PlummerSphere, CoreRadiiFollowTheLocalSpacing) {
  const ParticleSet p = plummer_sphere(50000, 9);
  expect_same_particles(p, plummer_sphere(50000, 9));
  double inner = 0, outer = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_LE(gamma_norm(p, i), 1.5 * p.sigma[i] * p.sigma[i]);
    EXPECT_GT(p.sigma[i], 0);
    const double r = std::sqrt(p.x[i] * p.x[i] + p.y[i] * p.y[i] + p.z[i] * p.z[i]);
    if (r < 0.1) inner = std::max(inner, p.sigma[i]);
    if (r > 3) outer = outer == 0 ? p.sigma[i] : std::min(outer, p.sigma[i]);
  }
  EXPECT_LT(inner, outer);  // denser centre, smaller cores
  // At the centre the density is 3 n / (4 pi a^3) (the truncation hardly matters).
  const double spacing = std::cbrt(4 * kPi / (3 * 50000.0));
  EXPECT_NEAR(inner / spacing, 1, 0.02);

  PlummerOptions fixed;
  fixed.sigma = 0.05;
  const ParticleSet q = plummer_sphere(1000, 9, fixed);
  for (double s : q.sigma) EXPECT_EQ(s, 0.05);
  fixed.sigma = -1;
  EXPECT_THROW(plummer_sphere(10, 1, fixed), std::invalid_argument);
}

TEST(ThinSheet, ParticlesInTheDiscWithInPlaneVorticity) {
  SheetOptions o;
  o.radius = 2;
  o.thickness = 0.02;
  o.spread = 0.3;
  const std::size_t n = 20000;
  const ParticleSet p = thin_sheet(n, 4, o);
  ASSERT_EQ(p.size(), n);
  expect_same_particles(p, thin_sheet(n, 4, o));
  EXPECT_NE(p.x, thin_sheet(n, 5, o).x);
  const double sigma = std::sqrt(kPi * o.radius * o.radius / n);
  std::size_t inner = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = std::hypot(p.x[i], p.y[i]);
    EXPECT_LE(r, o.radius);
    EXPECT_LE(std::abs(p.z[i]), o.thickness / 2);
    EXPECT_EQ(p.gz[i], 0);  // in the plane
    EXPECT_LE(gamma_norm(p, i), 1.5 * sigma * sigma * (1 + 1e-12));
    // Within the spread of +y.
    EXPECT_GE(p.gy[i], gamma_norm(p, i) * std::cos(o.spread) * (1 - 1e-12));
    EXPECT_NEAR(p.sigma[i], sigma, 1e-15);
    if (r < o.radius / 2) ++inner;
  }
  // Uniform in area: a quarter of the particles within half the radius.
  EXPECT_NEAR(static_cast<double>(inner) / n, 0.25, 0.01);
  o.thickness = 0;
  EXPECT_THROW(thin_sheet(10, 1, o), std::invalid_argument);
  o.thickness = 0.01;
  o.spread = -1;
  EXPECT_THROW(thin_sheet(10, 1, o), std::invalid_argument);
}

TEST(TwoScaleCube, HalfInTheSmallCubeWithSmallCores) {
  const std::size_t n = 20000;
  TwoScaleOptions o;  // ratio 10, small cube [0.3, 0.4)^3
  const ParticleSet p = two_scale_cube(n, 3, o);
  ASSERT_EQ(p.size(), n);
  expect_same_particles(p, two_scale_cube(n, 3, o));
  EXPECT_NE(p.x, two_scale_cube(n, 4, o).x);
  EXPECT_EQ(two_scale_cube(7, 1).size(), 7u);
  EXPECT_TRUE(two_scale_cube(0, 1).size() == 0);
  const double coarse = std::pow(n / 2.0, -1.0 / 3.0);
  const double fine = coarse / o.ratio;
  std::size_t in_small = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool small = i % 2 == 1;
    const double lo = small ? o.offset : 0, hi = small ? o.offset + 1 / o.ratio : 1;
    for (double c : {p.x[i], p.y[i], p.z[i]}) {
      EXPECT_GE(c, lo);
      EXPECT_LE(c, hi);
      EXPECT_LT(c, 1);
    }
    EXPECT_NEAR(p.sigma[i], small ? fine : coarse, 1e-15);
    EXPECT_LE(gamma_norm(p, i), 1.5 * p.sigma[i] * p.sigma[i]);
    if (small) ++in_small;
  }
  EXPECT_EQ(in_small, n / 2);
  // A prefix of a larger set is the smaller set, apart from sigma.
  const ParticleSet q = two_scale_cube(2 * n, 3, o);
  EXPECT_EQ(std::vector<double>(q.x.begin(), q.x.begin() + n), p.x);

  TwoScaleOptions other;
  other.ratio = 4;
  other.offset = 0.75;  // the small cube in the far corner, [0.75, 1)^3
  const ParticleSet r = two_scale_cube(1000, 3, other);
  for (std::size_t i = 1; i < r.size(); i += 2) {
    EXPECT_GE(std::min({r.x[i], r.y[i], r.z[i]}), 0.75);
    EXPECT_NEAR(r.sigma[i], std::pow(500.0, -1.0 / 3.0) / 4, 1e-15);
  }
  other.ratio = 0.5;
  EXPECT_THROW(two_scale_cube(10, 1, other), std::invalid_argument);
  other.ratio = 4;
  other.offset = 0.8;  // 0.8 + 1/4 > 1
  EXPECT_THROW(two_scale_cube(10, 1, other), std::invalid_argument);
  other.offset = -0.1;
  EXPECT_THROW(two_scale_cube(10, 1, other), std::invalid_argument);
}

TEST(EllipsoidSheet, ParticlesOnTheSurfaceWithTangentStrengths) {
  const std::size_t n = 20000;
  EllipsoidSheetOptions o;  // 10:10:1
  const ParticleSet p = ellipsoid_sheet(n, 6, o);
  ASSERT_EQ(p.size(), n);
  expect_same_particles(p, ellipsoid_sheet(n, 6, o));
  EXPECT_NE(p.x, ellipsoid_sheet(n, 7, o).x);
  EXPECT_TRUE(ellipsoid_sheet(0, 1).size() == 0);
  const double a = o.axes[0], c = o.axes[2];
  // The oblate spheroid's area in closed form, 2 pi a^2 (1 + (1 - e^2) atanh(e) / e); Thomsen's
  // formula is within 1.1% of it.
  const double e = std::sqrt(1 - c * c / (a * a));
  const double area = 2 * kPi * a * a * (1 + (1 - e * e) * std::atanh(e) / e);
  EXPECT_NEAR(ellipsoid_area(o.axes) / area, 1, 0.011);
  const double sigma = o.overlap * std::sqrt(ellipsoid_area(o.axes) / n);
  std::size_t band = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = p.x[i] / a, y = p.y[i] / o.axes[1], z = p.z[i] / c;
    EXPECT_NEAR(x * x + y * y + z * z, 1, 1e-12);
    const std::array<double, 3> normal{p.x[i] / (a * a), p.y[i] / (o.axes[1] * o.axes[1]),
                                       p.z[i] / (c * c)};
    const double along = (p.gx[i] * normal[0] + p.gy[i] * normal[1] + p.gz[i] * normal[2]) /
                         std::hypot(normal[0], normal[1], normal[2]);
    EXPECT_NEAR(along, 0, 1e-12 * gamma_norm(p, i));
    EXPECT_EQ(p.sigma[i], sigma);
    EXPECT_LE(gamma_norm(p, i), 1.5 * sigma * sigma * (1 + 1e-12));
    if (std::abs(p.z[i]) < c / 2) ++band;
  }
  // Uniform in area: the band |z| < c/2 holds its share of the area. On a spheroid the area
  // between heights 0 and h is 2 pi a F(h), F(h) = (h sqrt(1 + k^2 h^2) + asinh(k h) / k) / 2 with
  // k^2 = (a^2 - c^2) / c^4 (0.269 here, where a uniform draw in z would give 0.5).
  const double k = std::sqrt(a * a - c * c) / (c * c);
  const auto F = [k](double h) {
    return (h * std::sqrt(1 + k * k * h * h) + std::asinh(k * h) / k) / 2;
  };
  const double band_share = F(c / 2) / F(c);
  EXPECT_NEAR(2 * 2 * kPi * a * F(c) / area, 1, 1e-9);           // both halves, |z| <= c
  EXPECT_NEAR(static_cast<double>(band) / n, band_share, 0.01);  // standard error 0.003
}

TEST(EllipsoidSheet, AnyAxes) {
  EllipsoidSheetOptions o;
  o.axes = {2, 0.5, 0.05};
  o.overlap = 1;
  const std::size_t n = 5000;
  const ParticleSet p = ellipsoid_sheet(n, 2, o);
  ASSERT_EQ(p.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = p.x[i] / o.axes[0], y = p.y[i] / o.axes[1], z = p.z[i] / o.axes[2];
    EXPECT_NEAR(x * x + y * y + z * z, 1, 1e-12);
    const double along = p.gx[i] * p.x[i] / (o.axes[0] * o.axes[0]) +
                         p.gy[i] * p.y[i] / (o.axes[1] * o.axes[1]) +
                         p.gz[i] * p.z[i] / (o.axes[2] * o.axes[2]);
    const double normal =
        std::hypot(p.x[i] / (o.axes[0] * o.axes[0]), p.y[i] / (o.axes[1] * o.axes[1]),
                   p.z[i] / (o.axes[2] * o.axes[2]));
    EXPECT_NEAR(along / normal, 0, 1e-12 * gamma_norm(p, i));
  }
  // A sphere's area is exact.
  EXPECT_NEAR(ellipsoid_area({3, 3, 3}), 4 * kPi * 9, 1e-12);
  o.axes = {1, 0, 1};
  EXPECT_THROW(ellipsoid_sheet(10, 1, o), std::invalid_argument);
  o.axes = {1, 1, 1};
  o.overlap = -1;
  EXPECT_THROW(ellipsoid_sheet(10, 1, o), std::invalid_argument);
}
