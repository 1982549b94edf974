// A corpus of inputs a vortex-method code produces or a new user tries: multi-scale clouds (a small
// dense cube inside a large one, a tight cluster whose cores follow its spacing), a thin sheet and
// a ring, at absolute scales from 1e-90 to 1e90, at every expansion order in float and double, on
// every core and backend. Every result must be finite, and its mean errors within the tolerance
// against a long-double direct sum (scaled exactly to each scale: the field is scale-covariant,
// u ~ 1/s^2 and grad u ~ 1/s^3 when lengths scale by s at fixed strengths).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "support/backends.hpp"
#include "support/core_params.hpp"
#include "support/draws.hpp"
#include "support/reference.hpp"
#include "vortex/solver.hpp"
#include "vortex/tolerance.hpp"

namespace vortex {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A random unit-ish strength of magnitude up to 1.5 sigma^2 (as random_cube).
void add(ParticleSet& p, std::mt19937_64& rng, double x, double y, double z, double sigma) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double g[3] = {normal(rng), normal(rng), normal(rng)};
  const double mag =
      1.5 * sigma * sigma * unit(rng) / std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  p.push_back(x, y, z, g[0] * mag, g[1] * mag, g[2] * mag, sigma);
}

// n particles, particle i placed by place(p, draw, i) with the draws of `seed`.
template <class Place>
ParticleSet cloud(std::size_t n, std::uint64_t seed, Place&& place) {
  testing::Draws draw(seed);
  ParticleSet p;
  for (std::size_t i = 0; i < n; ++i) place(p, draw, i);
  return p;
}

// Half the particles in the unit cube, half in a cube `ratio` times smaller inside it, cores
// following the local spacing (density ratio ratio^3).
ParticleSet two_scale(std::size_t n, double ratio, std::uint64_t seed) {
  const double h = std::cbrt(2.0 / n);
  return cloud(n, seed, [&](ParticleSet& p, testing::Draws& draw, std::size_t i) {
    const bool small = i % 2 == 1;
    const double s = small ? 1 / ratio : 1.0, o = small ? 0.3 : 0.0;
    add(p, draw.rng, o + s * draw(), o + s * draw(), o + s * draw(), 1.5 * h * s);
  });
}

// A cluster of width 0.001 (Gaussian) holding half the particles, cores following the local
// spacing, in a uniform background of unit width.
ParticleSet cluster(std::size_t n, std::uint64_t seed) {
  const double h = std::cbrt(2.0 / n);
  return cloud(n, seed, [&](ParticleSet& p, testing::Draws& draw, std::size_t i) {
    if (i % 2 == 0) {
      add(p, draw.rng, draw(), draw(), draw(), 1.5 * h);
    } else {
      const double x = draw.normal(), y = draw.normal(), z = draw.normal();
      const double r = std::sqrt(x * x + y * y + z * z);
      // Spacing ~ 1 / cbrt(density); a Gaussian's density falls like exp(-r^2/2).
      const double local = 1e-3 * h * std::exp(r * r / 6);
      add(p, draw.rng, 0.5 + 1e-3 * x, 0.5 + 1e-3 * y, 0.5 + 1e-3 * z, 1.5 * local);
    }
  });
}

// The surface of a 10:10:1 ellipsoid (a thin sheet, like a wake), strengths along the surface.
ParticleSet sheet(std::size_t n, std::uint64_t seed) {
  const double h = std::sqrt(2 * kPi / n) * 1.2;
  return cloud(n, seed, [&](ParticleSet& p, testing::Draws& draw, std::size_t) {
    const double u = 2 * draw() - 1, phi = 2 * kPi * draw(), r = std::sqrt(1 - u * u);
    const double x = r * std::cos(phi), y = r * std::sin(phi), z = 0.1 * u;
    const double g = 1.5 * h * h * draw();
    p.push_back(x, y, z, -g * std::sin(phi), g * std::cos(phi), 0.0, 1.5 * h);
  });
}

// A thin ring of radius 1 and core radius 0.05, strengths along its circle.
ParticleSet ring(std::size_t n, std::uint64_t seed) {
  const double h = std::cbrt(2 * kPi * 0.05 * 0.05 * kPi / n);
  return cloud(n, seed, [&](ParticleSet& p, testing::Draws& draw, std::size_t) {
    const double phi = 2 * kPi * draw();
    const double a = 0.05 * draw.normal(), b = 0.05 * draw.normal();
    const double R = 1 + a;
    const double g = 1.5 * h * h * (0.5 + draw());
    p.push_back(R * std::cos(phi), R * std::sin(phi), b, -g * std::sin(phi), g * std::cos(phi), 0.0,
                1.5 * h);
  });
}

struct Cloud {
  std::string name;
  ParticleSet particles;
};

// VORTEX_CORPUS=full (scripts/studies/input-corpus.sh): larger clouds and the whole product of
// clouds, cores, scales, orders and precisions. Otherwise a few seconds' worth that still visits
// every cloud, core, scale, order and precision.
bool full_sweep() {
  const char* v = std::getenv("VORTEX_CORPUS");
  return v && std::string(v) == "full";
}

const std::vector<Cloud>& clouds() {
  static const std::vector<Cloud> all = [] {
    const std::size_t n = full_sweep() ? 6000 : 800;
    return std::vector<Cloud>{
        {"two-scale-1e3", two_scale(n, 10, 1)},   // density ratio 1e3
        {"two-scale-1e6", two_scale(n, 100, 2)},  // density ratio 1e6
        {"cluster", cluster(n, 3)},
        {"sheet", sheet(n, 4)},
        {"ring", ring(n, 5)},
    };
  }();
  return all;
}

// The long-double reference of a cloud and core at scale 1, computed once.
const VelocityField& reference(std::size_t cloud, Core core) {
  static std::map<std::pair<std::size_t, Core>, VelocityField> cache;
  const auto key = std::make_pair(cloud, core);
  auto it = cache.find(key);
  if (it == cache.end()) {
    const ParticleSet& p = clouds()[cloud].particles;
    it = cache.emplace(key, testing::reference_direct(p, PointsView(p), core, true)).first;
  }
  return it->second;
}

ParticleSet scaled(const ParticleSet& p, double s) {
  ParticleSet q = p;
  for (std::size_t i = 0; i < q.size(); ++i) {
    q.x[i] *= s, q.y[i] *= s, q.z[i] *= s;
    q.sigma[i] *= s;
  }
  return q;
}

std::string scale_name(double s) {
  char text[16];
  std::snprintf(text, sizeof text, "%.0e", s);
  return text;
}

// Evaluates cloud k scaled by s with options o: every value finite, and the mean relative errors
// of the velocity and the gradient, brought back to scale 1 (u s^2, grad u s^3), below `bound`.
void check(std::size_t k, double s, const SolverOptions& o, double bound) {
  SCOPED_TRACE(clouds()[k].name + ", " + to_string(o.core) + ", scale " + scale_name(s) + ", " +
               to_string(o.precision) + ", " + to_string(o.method) +
               (o.tree.order ? ", order " + std::to_string(o.tree.order) : std::string()));
  VelocityField f = Solver(o).evaluate(scaled(clouds()[k].particles, s), true);
  for (int c = 0; c < 12; ++c) {
    std::vector<double>& v = c < 3 ? f.u[c] : f.du[c - 3];
    for (std::size_t i = 0; i < v.size(); ++i) {
      ASSERT_TRUE(std::isfinite(v[i])) << "component " << c << " at target " << i;
      v[i] *= c < 3 ? s * s : s * s * s;
    }
  }
  const VelocityField& ref = reference(k, o.core);
  EXPECT_LT(testing::mean_relative_velocity(f, ref), bound);
  EXPECT_LT(testing::mean_relative_gradient(f, ref), bound);
}

constexpr double kScales[] = {1e-90, 1e-30, 1e-3, 1, 1e3, 1e30, 1e90};

class InputCorpus : public ::testing::TestWithParam<Backend> {};

// Every cloud, core and scale with the defaults (tolerance 2e-4, precision auto), and in float, in
// double and by the direct sum: finite, and within the tolerance (the direct sum to rounding).
TEST_P(InputCorpus, EveryScaleAndCoreIsFiniteAndWithinTheTolerance) {
  const Backend backend = GetParam();
  VORTEX_SKIP_WITHOUT(backend);
  for (std::size_t k = 0; k < clouds().size(); ++k)
    for (Core core : testing::kAllCores)
      for (double s : kScales) {
        SolverOptions o;
        o.backend = backend;
        o.core = core;
        check(k, s, o, kDefaultTolerance);
        // Each precision and the direct sum on one core a scale (all of them in the full sweep).
        const bool all = full_sweep() || testing::kAllCores[(&s - kScales) % 5] == core;
        if (!all) continue;
        for (Precision precision : {Precision::Float, Precision::Double}) {
          o.precision = precision;
          check(k, s, o, kDefaultTolerance);
        }
        o.method = Method::Direct;
        o.precision = Precision::Double;
        check(k, s, o, 1e-10);
      }
}

// Every order 1..16 in float and in double: finite everywhere, and mean errors within the error
// model's prediction for that order (three times it, for the small N) plus float's rounding.
TEST_P(InputCorpus, EveryOrderInFloatAndDoubleIsFinite) {
  const Backend backend = GetParam();
  VORTEX_SKIP_WITHOUT(backend);
  const double theta = 0.5;
  for (std::size_t k = 0; k < clouds().size(); ++k) {
    const SourceLayout layout = layout_of(SourcesView(clouds()[k].particles));
    for (std::size_t i = 0; i < std::size(kScales); ++i) {
      // One extreme scale a cloud (every scale in the full sweep).
      if (!full_sweep() && i != (k % 2 == 0 ? 1 : 5)) continue;
      for (Precision precision : {Precision::Float, Precision::Double})
        for (int order = 1; order <= 16; ++order) {
          SolverOptions o;
          o.backend = backend;
          o.precision = precision;
          o.tree.order = order;
          o.tree.theta = theta;
          const double model = predicted_far_error(order, theta, layout);
          check(k, kScales[i], o, 3 * model + (precision == Precision::Float ? 2e-5 : 1e-12));
        }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, InputCorpus, ::testing::ValuesIn(testing::kBackends),
                         testing::BackendName{});

}  // namespace
}  // namespace vortex
