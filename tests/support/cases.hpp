#pragma once
// Particle sets shared by the suites that run on both backends.

#include <cmath>
#include <cstdint>
#include <random>

#include "support/reference.hpp"
#include "vortex/math/core_function.hpp"
#include "vortex/particles.hpp"

namespace vortex::testing {

// The paper's cube for the regularized cores. The singular kernel gets a jittered lattice of about
// n points instead: its 1/r^3 makes a sum over randomly close pairs hinge on the float rounding of
// the positions themselves (|dx| ~ 3e-8 at r = 1e-3 is 3e-5 relative), which is not what float
// accumulation is tested for; the lattice keeps pairs at least 0.6 spacings apart.
inline ParticleSet backend_case(Core core, std::size_t n, std::uint64_t seed) {
  if (core != Core::Singular) return random_cube(n, seed);
  const int m = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(n))));
  const double h = 1.0 / m;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> jitter(-0.2 * h, 0.2 * h), strength(-h * h, h * h);
  ParticleSet p;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j)
      for (int k = 0; k < m; ++k)
        p.push_back((i + 0.5) * h + jitter(rng), (j + 0.5) * h + jitter(rng),
                    (k + 0.5) * h + jitter(rng), strength(rng), strength(rng), strength(rng), h);
  return p;
}

}  // namespace vortex::testing
