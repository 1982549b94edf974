#pragma once
// Neighbourhoods for the tests of the VRM's solve: random balls, balls cut by a wall with image
// moments as targets, and jittered lattice layers next to a wall (offsets in units of h, the
// particle first).

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "vortex/vrm.hpp"

namespace vortex::testing {

using Offsets = std::vector<std::array<double, 3>>;

// Random points in the ball of radius r around the particle (at index 0), at least `gap` apart.
inline Offsets random_ball(std::mt19937_64& rng, int count, double r, double gap) {
  std::uniform_real_distribution<double> u(-r, r);
  Offsets d{{0, 0, 0}};
  while (static_cast<int>(d.size()) < count) {
    const std::array<double, 3> x{u(rng), u(rng), u(rng)};
    if (x[0] * x[0] + x[1] * x[1] + x[2] * x[2] > r * r) continue;
    bool close = false;
    for (const auto& y : d)
      close = close || std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]) < gap;
    if (!close) d.push_back(x);
  }
  return d;
}

// Next to a wall z = -wall: a random ball's neighbours above it, and the image moments (a drift
// away from the wall, less spread across it) as targets.
struct WallCase {
  Offsets d;
  VrmMoments m;
};
inline WallCase wall_cut_ball(std::mt19937_64& rng, double wall) {
  std::uniform_real_distribution<double> drift(0.0, 0.15);
  WallCase c;
  for (const auto& x : random_ball(rng, 40, 1.5, 0.3))
    if (x[2] >= -wall) c.d.push_back(x);
  c.m = free_space_moments(0.125);
  c.m.first[2] = drift(rng);
  c.m.second[2] = 0.125 - 0.3 * c.m.first[2];
  return c;
}

// The particle and its lattice neighbours within sqrt(2) in the layers z = 0 and 1 above a wall,
// x and y jittered by up to `jitter` (none: the exact lattice).
inline Offsets lattice_layers(std::mt19937_64& rng, double jitter) {
  std::uniform_real_distribution<double> shift(-jitter, jitter);
  auto jit = [&] { return jitter > 0 ? shift(rng) : 0.0; };
  Offsets d{{0, 0, 0}};
  for (int i = -1; i <= 1; ++i)
    for (int j = -1; j <= 1; ++j)
      for (int k = 0; k <= 1; ++k)
        if ((i || j || k) && i * i + j * j + k * k <= 2) {
          const double x = i + jit(), y = j + jit();
          d.push_back({x, y, double(k)});
        }
  return d;
}

}  // namespace vortex::testing
