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
  vrm.blocked = [](const std::array<double, 3>& p, const std::array<double, 3>& q) {
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

// The same wall as a convex body (the half-space z < 0) for the GPU's round: a box below
// `box_top` (0: the body's; above 0 a box that settles fewer paths) and each point's closest wall
// point straight below it, at height `plane_height` (0: the wall itself; above 0 a plane that
// settles fewer paths, none of a point below it).
inline VrmOptions::ConvexWall plane_wall_convex(double box_top, double plane_height) {
  VrmOptions::ConvexWall c;
  c.lo = {-1e300, -1e300, -1e300};
  c.hi = {1e300, 1e300, box_top};
  c.plane = [plane_height](const std::array<double, 3>& p, std::array<double, 6>& plane) {
    plane = {p[0], p[1], plane_height, 0, 0, 1};
  };
  return c;
}

}  // namespace vortex::testing
