#include "vortex/bodies/wall.hpp"

#include "vortex/place_in_order.hpp"
#include "wall/wall_points_cuda.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace vortex::bodies {

namespace {

std::atomic<std::uint64_t> instances{0};

// The closest wall point of the last p that blocked() was asked about, by one thread.
struct ClosestOfP {
  std::uint64_t wall = 0;  // WallQueries::id_
  Vec3 p;
  Vec3 closest;  // p's closest wall point
  Vec3 normal;   // the normal of its panel
};

// Whether every edge of the closed mesh is convex: the far vertex of each triangle's neighbour
// across an edge lies on the inner side of the triangle's plane (within rounding of the body's
// size). A closed surface convex at every edge bounds a convex body, so every panel's plane then
// has the whole body on its inner side.
bool convex_at_every_edge(const Surface& surface, double size) {
  const TriangleMesh& mesh = surface.mesh;
  // (edge's smaller vertex, larger vertex, triangle, the triangle's vertex off the edge)
  std::vector<std::array<int, 4>> edges;
  edges.reserve(3 * mesh.size());
  for (std::size_t t = 0; t < mesh.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
      edges.push_back(
          {std::min(a, b), std::max(a, b), static_cast<int>(t), mesh.triangles[t][(k + 2) % 3]});
    }
  std::sort(edges.begin(), edges.end());
  const double tolerance = 1e-10 * size;
  for (std::size_t e = 0; e + 1 < edges.size(); e += 2) {
    const auto& one = edges[e];
    const auto& two = edges[e + 1];
    if (one[0] != two[0] || one[1] != two[1]) return false;  // not closed: no claim
    for (const auto& [tri, far] : {std::pair{one[2], two[3]}, std::pair{two[2], one[3]}}) {
      const Panel& p = surface.panels[tri];
      const auto& w = mesh.vertices[far];
      if (dot(Vec3{w[0], w[1], w[2]} - p.v0, p.normal) > tolerance) return false;
    }
  }
  return true;
}

}  // namespace

WallQueries::WallQueries(const Surface& surface)
    : surface_(&surface), id_(++instances), centroids_(panel_centroids(surface)) {
  lo_ = hi_ = surface.panels.at(0).v0;
  for (const auto& v : surface.mesh.vertices) {
    lo_ = {std::min(lo_.x, v[0]), std::min(lo_.y, v[1]), std::min(lo_.z, v[2])};
    hi_ = {std::max(hi_.x, v[0]), std::max(hi_.y, v[1]), std::max(hi_.z, v[2])};
  }
  for (const Panel& p : surface.panels)
    for (const Vec3& v : {p.v0, p.v1, p.v2})
      corner_reach_ = std::max(corner_reach_, norm(v - p.centroid));
  convex_ = convex_at_every_edge(surface, norm(hi_ - lo_));
}

WallQueries::~WallQueries() = default;

void WallQueries::closest_within(const std::vector<double>& x, const std::vector<double>& y,
                                 const std::vector<double>& z, double reach, Backend backend,
                                 std::vector<WallPoint>& out) const {
  if (y.size() != x.size() || z.size() != x.size())
    throw std::invalid_argument("wall points: the coordinate arrays differ in length");
  if (resolve_backend(backend) == Backend::Cuda) {
    if (!device_) device_ = detail::WallPointsDevice::create(*surface_, corner_reach_);
    if (device_) {
      device_->closest_within(x, y, z, reach, out);
      return;
    }
  }
  out.resize(x.size());
  const auto n = static_cast<std::ptrdiff_t>(x.size());
#pragma omp parallel for schedule(dynamic, 256)
  for (std::ptrdiff_t k = 0; k < n; ++k) out[k] = closest_within({x[k], y[k], z[k]}, reach);
}

void WallQueries::closest_near_box(PointsView particles, double reach, Backend backend,
                                   KnownWallPoints& out) const {
  out.slot.resize(particles.size());  // every entry placed below
  place_in_order(
      particles.size(),
      [&](std::size_t i) {
        return near({particles.x[i], particles.y[i], particles.z[i]}, reach);
      },
      [&](std::size_t total) {
        out.x.resize(total);
        out.y.resize(total);
        out.z.resize(total);
        out.index.resize(total);
      },
      [&](std::size_t i, std::size_t at) {
        out.slot[i] = at == kNotPicked ? -1 : static_cast<std::int32_t>(at);
        if (at == kNotPicked) return;
        out.x[at] = particles.x[i];
        out.y[at] = particles.y[i];
        out.z[at] = particles.z[i];
        out.index[at] = static_cast<std::int32_t>(i);
      });
  closest_within(out.x, out.y, out.z, reach * (1 + 1e-6), backend, out.points);
}

WallPoint WallQueries::closest(const Vec3& x) const {
  double d2 = 0;
  centroids_.nearest(x.x, x.y, x.z, &d2);
  return closest_from_nearest(x, std::sqrt(d2));
}

WallPoint WallQueries::closest_within(const Vec3& x, double reach) const {
  double d2 = 0;
  centroids_.nearest(x.x, x.y, x.z, &d2);
  // Every point y of panel j lies within corner_reach_ of its centroid c_j, so
  // |x - y| >= |x - c_j| - corner_reach_ >= nearest - corner_reach_.
  const double nearest = std::sqrt(d2), bound = nearest - corner_reach_;
  if (bound > reach) {
    WallPoint far;
    far.distance = bound;
    return far;
  }
  return closest_from_nearest(x, nearest);
}

WallPoint WallQueries::closest_from_nearest(const Vec3& x, double nearest) const {
  thread_local std::vector<int> candidates;  // kept, so that repeated queries allocate nothing
  // The closest point y of panel j: |x - c_j| <= |x - y| + |y - c_j| <= nearest + corner_reach_
  // (a triangle's farthest point from its centroid is a corner). The margin keeps the panels that
  // tie with it to rounding (relative: lengths of any scale).
  centroids_.query(x.x, x.y, x.z, (nearest + corner_reach_) * (1 + 1e-9), candidates);
  return closest_among(x, candidates);
}

WallPoint WallQueries::closest_among(const Vec3& x, const std::vector<int>& candidates) const {
  ClosestPanel best(x);
  for (int j : candidates) best.consider(j, surface_->panels[j]);
  return best.result();
}

bool WallQueries::blocked(const Vec3& p, const Vec3& q, const WallPoint* known) const {
  const bool off_box = std::max(p.x, q.x) < lo_.x || std::min(p.x, q.x) > hi_.x ||
                       std::max(p.y, q.y) < lo_.y || std::min(p.y, q.y) > hi_.y ||
                       std::max(p.z, q.z) < lo_.z || std::min(p.z, q.z) > hi_.z;
  if (off_box) return false;
  // A convex body lies on the inner side of the plane of p's closest panel: q and the midpoint
  // beyond that plane are outside it. p's closest point is kept for the segments from one p.
  if (convex_) {
    thread_local ClosestOfP around;
    if (around.wall != id_ || around.p.x != p.x || around.p.y != p.y || around.p.z != p.z) {
      const WallPoint w = known != nullptr ? *known : closest(p);
      around = {id_, p, w.point, w.normal};
    }
    if (beyond_tangent_plane(p, q, around.closest, around.normal, box_diagonal())) return false;
  }
  return inside(q) || inside(0.5 * (p + q));
}

// Otherwise the sign of the distance to the closest point decides, from a search as small as x's
// own distance allows (not one around the segment's start, which a point across a thin body would
// share with the whole of the other face).
bool WallQueries::inside(const Vec3& x) const {
  if (!near(x, 0)) return false;
  double d2 = 0;
  const int k = centroids_.nearest(x.x, x.y, x.z, &d2);
  if (convex_ && beyond_panel_plane(x, surface_->panels[k], box_diagonal())) return false;
  return closest_from_nearest(x, std::sqrt(d2)).distance < 0;
}

double WallQueries::distance_bound(const Vec3& x, double reach) const {
  if (near(x, reach)) return closest_within(x, reach).distance;
  return std::max({lo_.x - x.x, x.x - hi_.x, lo_.y - x.y, x.y - hi_.y, lo_.z - x.z, x.z - hi_.z});
}

WallStats WallQueries::keep_in_fluid(ParticleSet& ps, double min_distance,
                                     const KnownWallPoints* known) const {
  std::size_t reflected = 0, pushed = 0;
  const auto n = static_cast<std::ptrdiff_t>(ps.size());
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : reflected, pushed)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const Vec3 x{ps.x[i], ps.y[i], ps.z[i]};
    // Farther than min_distance from the bounding box: in the fluid and far enough.
    if (!near(x, min_distance)) continue;
    const WallPoint* k = known != nullptr ? known->find(static_cast<std::size_t>(i)) : nullptr;
    // A known point beyond its search's reach bounds the distance, not its sign: far, unless x
    // lies inside the body deeper than that reach.
    if (k != nullptr && k->panel < 0 && k->distance >= min_distance && !inside(x)) continue;
    const WallPoint w = k != nullptr && k->panel >= 0 ? *k : closest(x);
    if (w.distance >= min_distance) continue;
    double target = w.distance;
    if (target < 0) {
      target = -target;  // the mirror image across the wall
      ++reflected;
    }
    if (target < min_distance) {
      target = min_distance;
      ++pushed;
    }
    const Vec3 y = w.point + target * w.normal;
    ps.x[i] = y.x;
    ps.y[i] = y.y;
    ps.z[i] = y.z;
  }
  return {reflected, pushed};
}

}  // namespace vortex::bodies
