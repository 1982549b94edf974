#include "particle_cases.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "cli.hpp"
#include "memory_check.hpp"
#include "vortex/generators.hpp"

namespace vortex::cli {

namespace {

// A double as printf's %g writes it (std::to_string would print 1e-30 as 0.000000).
std::string to_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

}  // namespace

ParticleSet make_case(const std::string& name, std::size_t n, std::uint64_t seed, double scale) {
  if (n == 0) throw UsageError("--n must be at least 1");
  if (!(scale > 0) || !std::isfinite(scale)) {
    throw UsageError("--scale must be finite and positive, got " + to_text(scale));
  }
  // The particles, their copies in tree order, the trees and the results with the gradient.
  constexpr long double kBytesPerParticle = 400;
  require_memory("--n " + std::to_string(n) + " (the particles, trees and results)",
                 kBytesPerParticle * static_cast<long double>(n));
  ParticleSet p;
  if (name == "cube") {
    p = random_cube(n, seed);
  } else if (name == "plummer") {
    p = plummer_sphere(n, seed);
  } else if (name == "ring") {
    p = vortex_ring(ring_options_for_count(n));
  } else if (name == "sheet") {
    p = thin_sheet(n, seed);
  } else if (name == "two-scale") {
    p = two_scale_cube(n, seed);
  } else if (name == "ellipsoid") {
    p = ellipsoid_sheet(n, seed);
  } else {
    throw UsageError("--case: unknown case '" + name +
                     "' (accepted: cube, plummer, ring, sheet, two-scale, ellipsoid)");
  }
  if (scale != 1) {
    for (std::size_t i = 0; i < p.size(); ++i) {
      p.x[i] *= scale;
      p.y[i] *= scale;
      p.z[i] *= scale;
      p.sigma[i] *= scale;
      // Out of range (infinite, or sigma underflowing to zero or a subnormal) is refused here.
      if (!std::isfinite(p.x[i]) || !std::isfinite(p.y[i]) || !std::isfinite(p.z[i]) ||
          !std::isnormal(p.sigma[i])) {
        throw UsageError("--scale " + to_text(scale) + " takes the " + name +
                         " case out of double's range (particle " + std::to_string(i) + ")");
      }
    }
  }
  return p;
}

}  // namespace vortex::cli
