#pragma once
// Where points are relative to the wall: closest point on the surface, signed distance, inside
// test; and the corrections that keep particles in the fluid (reflection of particles that
// entered the body, push-out of particles too close to the wall).
//
// The closest panel is found with the library's k-d tree over panel centroids: the panel that
// holds the closest point has its centroid within (distance to the nearest centroid + largest
// distance from a centroid to its panel's corners), and the exact point-triangle distance is
// taken over those candidates. The sign
// is that of the offset along the closest panel's normal (where several panels tie, at an edge or
// a vertex, the one whose normal is most aligned with the offset), exact for convex bodies and
// for points closer to a smooth wall than its radius of curvature.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "vortex/bodies/surface.hpp"
#include "vortex/math/closest_panel.hpp"
#include "vortex/neighbor_search.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies {

namespace detail {
class WallPointsDevice;
}

// The closest wall points found for the particles of a set near the wall: per particle (of the
// first slot.size()), the place of its point, or -1 where none was looked for (the particle lies
// off the surface's bounding box by more than the reach); per place, the particle and its point.
// Two arrays of places rather than a point per particle, which at millions of particles would
// write far more memory than the few near the wall need.
struct KnownWallPoints {
  std::vector<std::int32_t> slot;   // per particle
  std::vector<std::int32_t> index;  // per place, ascending
  std::vector<WallPoint> points;    // per place
  std::vector<double> x, y, z;      // per place: the particle's position (the queries' input)
  // Particle i's place, or -1.
  std::int32_t place(std::size_t i) const { return i < slot.size() ? slot[i] : -1; }
  const WallPoint* find(std::size_t i) const {
    const std::int32_t k = place(i);
    return k >= 0 ? &points[k] : nullptr;
  }
  void clear() {
    slot.clear();
    index.clear();
    points.clear();
  }
};

struct WallStats {
  std::size_t reflected = 0;  // particles moved from inside the body to their mirror image
  std::size_t pushed = 0;     // particles moved out to the minimum distance
};

class WallQueries {
 public:
  explicit WallQueries(const Surface& surface);
  ~WallQueries();

  WallPoint closest(const Vec3& x) const;
  // closest(x) where the wall may lie within `reach` of x; else panel -1 and a lower bound of the
  // distance, above `reach`, found from the nearest centroid alone (no panel is tested).
  WallPoint closest_within(const Vec3& x, double reach) const;
  // closest_within(x_k, reach) of the points (x[k], y[k], z[k]): on the host's threads, or with
  // Backend::Cuda on the GPU (vortex/gpu/wall_points.hpp: the same to rounding; a point whose
  // closest panels tie may get the other one). Not from several threads at once.
  void closest_within(const std::vector<double>& x, const std::vector<double>& y,
                      const std::vector<double>& z, double reach, Backend backend,
                      std::vector<WallPoint>& out) const;
  // Whether closest(x).distance < 0, decided without the closest point where x lies off the
  // bounding box or (convex meshes) beyond the plane of the panel of its nearest centroid: a
  // convex body lies on the inner side of every panel's plane.
  bool inside(const Vec3& x) const;
  // Panels whose centroid lies within r of x.
  void panels_near(const Vec3& x, double r, std::vector<int>& out) const {
    centroids_.query(x.x, x.y, x.z, r, out);
  }
  // Whether x lies within `margin` of the surface's bounding box (a cheap test before closest()).
  bool near(const Vec3& x, double margin) const {
    return x.x >= lo_.x - margin && x.x <= hi_.x + margin && x.y >= lo_.y - margin &&
           x.y <= hi_.y + margin && x.z >= lo_.z - margin && x.z <= hi_.z + margin;
  }
  // closest_within(x_i, reach) of every particle x_i that lies within `reach` of the surface's
  // bounding box (the same backends), placed in index order; the others get no place. The
  // search reaches a little farther (1e-6 of it), so that a bound kept in place of a distance
  // compares with the reach as the distance would.
  void closest_near_box(PointsView particles, double reach, Backend backend,
                        KnownWallPoints& out) const;
  // Whether the straight segment from p to q leaves the fluid (q inside the body, or its
  // midpoint inside: a thin body between them). Segments off the body's bounding box are
  // answered without a search; on a convex body, the segments from one p share p's closest point
  // (per thread), and most are answered by its panel's plane. `known`: p's closest point, where
  // already found (closest(p) to the bit).
  bool blocked(const Vec3& p, const Vec3& q, const WallPoint* known = nullptr) const;
  // The signed distance from x to the wall (negative inside) where the wall may lie within
  // `reach` of x (closest_within); elsewhere a lower bound of it above `reach`, or off the
  // bounding box by more than `reach` the distance to the box along an axis.
  double distance_bound(const Vec3& x, double reach) const;

  // Reflects every particle inside the body across the wall to the fluid side (strength kept),
  // then moves every particle closer than `min_distance` out along the normal to that distance.
  // `known`: closest points already found for some of the particles (panel -1: a lower bound of
  // the distance beyond the search's reach; such a particle is still reflected when it lies inside
  // the body, however deep).
  WallStats keep_in_fluid(ParticleSet& particles, double min_distance,
                          const KnownWallPoints* known = nullptr) const;

  const Surface& surface() const { return *surface_; }
  // Whether the mesh is convex at every edge (then blocked() answers most segments from the plane
  // of p's closest panel alone).
  bool convex() const { return convex_; }
  // The diagonal of the surface's bounding box: the scale of blocked()'s rounding margin.
  double box_diagonal() const { return norm(hi_ - lo_); }

 private:
  // The closest point to x among `candidates`: ascending panel indices that include every panel
  // whose centroid lies within (an upper bound of x's distance) + corner_reach_ of x.
  WallPoint closest_among(const Vec3& x, const std::vector<int>& candidates) const;
  // closest(x) given the distance to the nearest centroid.
  WallPoint closest_from_nearest(const Vec3& x, double nearest) const;

  const Surface* surface_;
  std::uint64_t id_;  // tells this instance's panels kept by blocked() from another's
  NeighborSearch centroids_;
  Vec3 lo_, hi_;             // bounding box of the surface
  double corner_reach_ = 0;  // largest distance from a panel's centroid to one of its corners
  bool convex_ = false;
  mutable std::unique_ptr<detail::WallPointsDevice> device_;  // made at the first call that asks
};

}  // namespace vortex::bodies
