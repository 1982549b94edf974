#pragma once
// A plane wall for the VRM's tests: the body below z = 0, the hooks of VrmOptions for it.

#include <array>
#include <cstddef>

#include "vortex/vrm.hpp"

namespace vortex::testing {

// Spacing 1; no path into z < 0 (nor through a thin body below the midpoint), the distance to the
// wall (with_distance), and a drift away from the wall as the moments of particles below z = 3.
inline VrmOptions plane_wall_options(bool with_distance) {
  VrmOptions vrm;
  vrm.spacing = 1;
  vrm.blocked = [](std::size_t, const std::array<double, 3>& p, const std::array<double, 3>& q) {
    return q[2] < 0 || p[2] + q[2] < 0;
  };
  if (with_distance)
    vrm.wall_distance = [](std::size_t, const std::array<double, 3>& p, double) { return p[2]; };
  vrm.moments = [](std::size_t, const std::array<double, 3>& p, double s2, VrmMoments& m) {
    if (p[2] > 3) return false;
    m = free_space_moments(s2);
    m.first[2] = 0.1 * s2;  // a drift away from the wall
    return true;
  };
  return vrm;
}

}  // namespace vortex::testing
