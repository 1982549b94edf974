#include "vortex/bodies/wall_nearby.hpp"

namespace vortex::bodies {

void find_wall_nearby(const WallQueries& wall, const ParticleSet& particles, double reach,
                      Backend backend, KnownWallPoints& scratch, WallNearby& out) {
  const ParticleSet& p = particles;
  wall.closest_near_box(p, reach, backend, scratch);
  const bool convex = wall.convex();
  out.distance.resize(p.size());
  out.plane.assign(convex ? p.size() : 0, -1);
  out.planes.resize(convex ? scratch.points.size() : 0);
  out.body_scale = wall.box_diagonal();
  out.solid = true;  // WallQueries::blocked is the segment test of a solid body
  const auto n = static_cast<std::ptrdiff_t>(p.size());
#pragma omp parallel for schedule(static) if (n > 20000)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const std::int32_t k = scratch.place(static_cast<std::size_t>(i));
    if (k < 0) {
      out.distance[i] = wall.distance_bound({p.x[i], p.y[i], p.z[i]}, reach);
      continue;
    }
    const WallPoint& w = scratch.points[k];
    out.distance[i] = w.distance;
    if (!convex || w.panel < 0) continue;
    out.plane[i] = k;
    out.planes[k] = {w.point.x, w.point.y, w.point.z, w.normal.x, w.normal.y, w.normal.z};
  }
}

}  // namespace vortex::bodies
