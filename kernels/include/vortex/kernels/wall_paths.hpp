#pragma once
// Quick answers about the straight path from p to a point q near a body, shared by the host's wall
// (bodies/wall.hpp: WallQueries::blocked) and the VRM's rounds on the host and on the GPU
// (toolkit/vrm.cpp, gpu/src/vrm/vrm_round.cu), so that all of them settle a path alike:
//
// - within_free_ball: half the path's length is less than the wall distance of p or of q, so the
//   path and its midpoint lie in a ball free of the wall;
// - misses_box: the path's bounding box misses the body's;
// - beyond_plane: q and the midpoint lie beyond the plane of p's closest wall point (its point and
//   outward normal), on the outer side, where a convex body is not.
//
// A path none of them settles needs the body itself (closest points of q and of the midpoint).

#include <cmath>

#include "vortex/kernels/hd.hpp"

namespace vortex::wall_paths {

VORTEX_HD double path_length(const double p[3], const double q[3]) {
  const double ex = q[0] - p[0], ey = q[1] - p[1], ez = q[2] - p[2];
  return sqrt(ex * ex + ey * ey + ez * ez);
}

VORTEX_HD bool within_free_ball(double length, double distance_p, double distance_q) {
  const double d = distance_p > distance_q ? distance_p : distance_q;
  return 0.5 * length < d * (1 - 1e-9);
}

VORTEX_HD bool misses_box(const double lo[3], const double hi[3], const double p[3],
                          const double q[3]) {
  for (int k = 0; k < 3; ++k)
    if ((p[k] > q[k] ? p[k] : q[k]) < lo[k] || (p[k] < q[k] ? p[k] : q[k]) > hi[k]) return true;
  return false;
}

VORTEX_HD bool beyond_plane(const double point[3], const double normal[3], const double p[3],
                            const double q[3], double length) {
  const double margin = 1e-12 * (1 + length);
  double at_q = 0, at_mid = 0;
  for (int k = 0; k < 3; ++k) {
    at_q += (q[k] - point[k]) * normal[k];
    at_mid += (0.5 * (p[k] + q[k]) - point[k]) * normal[k];
  }
  return at_q > margin && at_mid > margin;
}

}  // namespace vortex::wall_paths
