#include "vortex/generators.hpp"
#include "solver/text_excerpt.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace vortex {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Uniform in [0, 1) from the top 53 bits of one draw.
double uniform01(std::mt19937_64& rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

std::array<double, 3> random_direction(std::mt19937_64& rng) {
  const double z = 2 * uniform01(rng) - 1;
  const double phi = 2 * kPi * uniform01(rng);
  const double s = std::sqrt(std::max(0.0, 1 - z * z));
  return {s * std::cos(phi), s * std::sin(phi), z};
}

// Gamma in a random direction with |Gamma| uniform in [0, 1.5 sigma^2] (the paper's choice).
void push_with_random_gamma(ParticleSet& p, double x, double y, double z, double sigma,
                            std::mt19937_64& rng) {
  const auto d = random_direction(rng);
  const double magnitude = 1.5 * sigma * sigma * uniform01(rng);
  p.push_back(x, y, z, magnitude * d[0], magnitude * d[1], magnitude * d[2], sigma);
}

std::array<double, 3> cross(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

std::array<double, 3> normalized(const std::array<double, 3>& v, const char* what) {
  const double norm = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(norm > 0) || !std::isfinite(norm)) {
    throw std::invalid_argument(std::string(what) + " must be a finite non-zero vector");
  }
  return {v[0] / norm, v[1] / norm, v[2] / norm};
}

void require_positive(double value, const char* what) {
  if (!(value > 0) || !std::isfinite(value)) {
    throw std::invalid_argument(std::string(what) + " must be positive and finite, got " +
                                std::to_string(value));
  }
}

double ring_spacing(const RingOptions& o) {
  return o.core_radius / (o.layers + 0.5);
}

int ring_stations(const RingOptions& o) {
  if (o.stations > 0) return std::max(o.stations, 3);
  return std::max(3, static_cast<int>(std::lround(2 * kPi * o.radius / ring_spacing(o))));
}

std::size_t particles_per_section(int layers) {
  return 1 + 3 * static_cast<std::size_t>(layers) * static_cast<std::size_t>(layers + 1);
}

// Mass of the untruncated Plummer sphere inside r, in units of the total.
double plummer_mass(double r, double a) {
  return std::pow(r * r / (r * r + a * a), 1.5);
}

}  // namespace

ParticleSet random_cube(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  ParticleSet p;
  p.reserve(n);
  const double sigma = n > 0 ? std::pow(static_cast<double>(n), -1.0 / 3.0) : 1.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = uniform01(rng), y = uniform01(rng), z = uniform01(rng);
    push_with_random_gamma(p, x, y, z, sigma, rng);
  }
  return p;
}

std::size_t ring_particle_count(const RingOptions& o) {
  return static_cast<std::size_t>(ring_stations(o)) * particles_per_section(o.layers);
}

ParticleSet vortex_ring(const RingOptions& o) {
  require_positive(o.radius, "ring radius");
  require_positive(o.core_radius, "ring core radius");
  require_positive(o.gaussian_width, "ring gaussian_width");
  require_positive(o.overlap, "ring overlap");
  if (o.layers < 0) throw std::invalid_argument("ring layers must be >= 0");
  if (o.core_radius >= o.radius) {
    throw std::invalid_argument("ring core radius must be smaller than the ring radius");
  }
  const auto axis = normalized(o.axis, "ring axis");
  // Any unit vector normal to the axis starts the azimuthal angle.
  std::array<double, 3> helper{1, 0, 0};
  if (std::abs(axis[0]) > 0.9) helper = {0, 1, 0};
  const double along = helper[0] * axis[0] + helper[1] * axis[1] + helper[2] * axis[2];
  const auto e1 = normalized(
      {helper[0] - along * axis[0], helper[1] - along * axis[1], helper[2] - along * axis[2]},
      "ring basis");
  const auto e2 = cross(axis, e1);

  const double h = ring_spacing(o);
  const double delta = o.gaussian_width * o.core_radius;
  const int stations = ring_stations(o);
  // Share of each layer in the cross-section's circulation.
  const double total = 1 - std::exp(-(o.core_radius * o.core_radius) / (delta * delta));
  std::vector<double> share(static_cast<std::size_t>(o.layers) + 1);
  for (int k = 0; k <= o.layers; ++k) {
    const double r_in = k == 0 ? 0 : (k - 0.5) * h;
    const double r_out = (k + 0.5) * h;
    share[static_cast<std::size_t>(k)] = (std::exp(-(r_in * r_in) / (delta * delta)) -
                                          std::exp(-(r_out * r_out) / (delta * delta))) /
                                         total;
  }

  ParticleSet p;
  p.reserve(ring_particle_count(o));
  const double sigma = o.overlap * h;
  for (int s = 0; s < stations; ++s) {
    const double theta = 2 * kPi * s / stations;
    const std::array<double, 3> e_r{std::cos(theta) * e1[0] + std::sin(theta) * e2[0],
                                    std::cos(theta) * e1[1] + std::sin(theta) * e2[1],
                                    std::cos(theta) * e1[2] + std::sin(theta) * e2[2]};
    const auto e_theta = cross(axis, e_r);
    for (int k = 0; k <= o.layers; ++k) {
      const int count = k == 0 ? 1 : 6 * k;
      const double rho = k * h;
      const double circulation = o.circulation * share[static_cast<std::size_t>(k)] / count;
      for (int i = 0; i < count; ++i) {
        const double phi = 2 * kPi * i / count;
        const double from_axis = o.radius + rho * std::cos(phi);
        const double height = rho * std::sin(phi);
        const double strength = circulation * 2 * kPi * from_axis / stations;
        p.push_back(o.center[0] + from_axis * e_r[0] + height * axis[0],
                    o.center[1] + from_axis * e_r[1] + height * axis[1],
                    o.center[2] + from_axis * e_r[2] + height * axis[2], strength * e_theta[0],
                    strength * e_theta[1], strength * e_theta[2], sigma);
      }
    }
  }
  return p;
}

RingOptions ring_options_for_count(std::size_t n, RingOptions base) {
  if (n == 0) throw std::invalid_argument("a ring needs at least one particle");
  // The number of layers whose natural station count gives the closest total, then the stations
  // adjusted to n.
  int best_layers = 0;
  double best_gap = INFINITY;
  for (int layers = 0; layers <= 400; ++layers) {
    RingOptions o = base;
    o.layers = layers;
    o.stations = 0;
    const double gap = std::abs(std::log(static_cast<double>(ring_particle_count(o)) / n));
    if (gap < best_gap) {
      best_gap = gap;
      best_layers = layers;
    }
  }
  base.layers = best_layers;
  const double per_section = static_cast<double>(particles_per_section(best_layers));
  base.stations = std::max(3, static_cast<int>(std::lround(n / per_section)));
  return base;
}

ParticleSet plummer_sphere(std::size_t n, std::uint64_t seed, const PlummerOptions& o) {
  require_positive(o.scale_radius, "Plummer scale radius");
  require_positive(o.max_radius, "Plummer max radius");
  require_positive(o.overlap, "Plummer overlap");
  if (o.sigma < 0 || !std::isfinite(o.sigma)) {
    throw std::invalid_argument("Plummer sigma must be >= 0 (0 = from the local spacing)");
  }
  std::mt19937_64 rng(seed);
  const double a = o.scale_radius;
  const double r_max = o.max_radius * a;
  // Expected number density, normalized to n particles inside r_max.
  const double density0 = n * 3 / (4 * kPi * a * a * a) / plummer_mass(r_max, a);
  ParticleSet p;
  p.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    double r;
    do {
      const double u = uniform01(rng);
      r = u > 0 ? a / std::sqrt(std::pow(u, -2.0 / 3.0) - 1) : INFINITY;
    } while (!(r <= r_max));
    const auto d = random_direction(rng);
    double sigma = o.sigma;
    if (sigma == 0) {
      const double density = density0 * std::pow(1 + r * r / (a * a), -2.5);
      sigma = o.overlap * std::cbrt(1 / density);
    }
    push_with_random_gamma(p, o.center[0] + r * d[0], o.center[1] + r * d[1],
                           o.center[2] + r * d[2], sigma, rng);
  }
  return p;
}

ParticleSet thin_sheet(std::size_t n, std::uint64_t seed, const SheetOptions& o) {
  require_positive(o.radius, "sheet radius");
  require_positive(o.thickness, "sheet thickness");
  require_positive(o.overlap, "sheet overlap");
  if (!(o.spread >= 0) || !std::isfinite(o.spread)) {
    throw std::invalid_argument("sheet spread must be >= 0 and finite, got " +
                                detail::number_text(o.spread));
  }
  std::mt19937_64 rng(seed);
  const double spacing = n > 0 ? o.radius * std::sqrt(kPi / static_cast<double>(n)) : 1.0;
  const double sigma = o.overlap * spacing;
  ParticleSet p;
  p.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double r = o.radius * std::sqrt(uniform01(rng));  // uniform in the disc's area
    const double phi = 2 * kPi * uniform01(rng);
    const double z = o.thickness * (uniform01(rng) - 0.5);
    const double angle = o.spread * (2 * uniform01(rng) - 1);
    const double magnitude = 1.5 * sigma * sigma * uniform01(rng);
    p.push_back(r * std::cos(phi), r * std::sin(phi), z, -magnitude * std::sin(angle),
                magnitude * std::cos(angle), 0.0, sigma);
  }
  return p;
}

ParticleSet two_scale_cube(std::size_t n, std::uint64_t seed, const TwoScaleOptions& o) {
  if (!(o.ratio >= 1) || !std::isfinite(o.ratio)) {
    throw std::invalid_argument("two-scale ratio must be >= 1 and finite, got " +
                                detail::number_text(o.ratio));
  }
  const double size = 1 / o.ratio;
  if (!(o.offset >= 0) || !(o.offset + size <= 1)) {
    throw std::invalid_argument("two-scale offset must be in [0, 1 - 1/ratio], got " +
                                detail::number_text(o.offset));
  }
  std::mt19937_64 rng(seed);
  ParticleSet p;
  p.reserve(n);
  // Each half's spacing: n/2 particles in the unit cube, n/2 in a cube of side 1/ratio.
  const double coarse = n > 0 ? std::cbrt(2 / static_cast<double>(n)) : 1.0;
  const double fine = coarse * size;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = uniform01(rng), y = uniform01(rng), z = uniform01(rng);
    if (i % 2 == 0) {
      push_with_random_gamma(p, x, y, z, coarse, rng);
    } else {
      push_with_random_gamma(p, o.offset + x * size, o.offset + y * size, o.offset + z * size, fine,
                             rng);
    }
  }
  return p;
}

double ellipsoid_area(const std::array<double, 3>& axes) {
  constexpr double p = 1.6075;
  const double a = std::pow(axes[0], p), b = std::pow(axes[1], p), c = std::pow(axes[2], p);
  return 4 * kPi * std::pow((a * b + a * c + b * c) / 3, 1 / p);
}

ParticleSet ellipsoid_sheet(std::size_t n, std::uint64_t seed, const EllipsoidSheetOptions& o) {
  const double a = o.axes[0], b = o.axes[1], c = o.axes[2];
  require_positive(a, "ellipsoid semi-axis a");
  require_positive(b, "ellipsoid semi-axis b");
  require_positive(c, "ellipsoid semi-axis c");
  require_positive(o.overlap, "ellipsoid overlap");
  std::mt19937_64 rng(seed);
  const double spacing = n > 0 ? std::sqrt(ellipsoid_area(o.axes) / static_cast<double>(n)) : 1.0;
  const double sigma = o.overlap * spacing;
  const double largest_stretch = 1 / std::min({a, b, c});
  ParticleSet p;
  p.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    // A uniform point on the unit sphere, kept in proportion to the area it maps to.
    double s, z, phi, stretch;
    do {
      z = 2 * uniform01(rng) - 1;
      phi = 2 * kPi * uniform01(rng);
      s = std::sqrt(std::max(0.0, 1 - z * z));
      const double ux = s * std::cos(phi) / a, uy = s * std::sin(phi) / b, uz = z / c;
      stretch = std::sqrt(ux * ux + uy * uy + uz * uz);
    } while (!(uniform01(rng) * largest_stretch < stretch));
    // d/dphi of the position: tangent to the surface, also at the poles.
    const double tx = -a * std::sin(phi), ty = b * std::cos(phi);
    const double scale = 1.5 * sigma * sigma * uniform01(rng) / std::hypot(tx, ty);
    p.push_back(a * s * std::cos(phi), b * s * std::sin(phi), c * z, scale * tx, scale * ty, 0.0,
                sigma);
  }
  return p;
}

double plummer_half_mass_radius(const PlummerOptions& o) {
  const double a = o.scale_radius;
  const double m = 0.5 * plummer_mass(o.max_radius * a, a);
  const double q = std::cbrt(m * m);  // r^2 / (r^2 + a^2)
  return a * std::sqrt(q / (1 - q));
}

}  // namespace vortex
