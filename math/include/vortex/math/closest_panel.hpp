#pragma once
// The closest point of the wall among candidate panels, written once for the host's wall queries
// (vortex/bodies/wall.hpp) and the device's (vortex/gpu/wall_points.hpp): the exact point-triangle
// distance to each candidate; where several panels tie (at an edge or a vertex) the one whose
// normal is most aligned with the offset, and the sign of the offset along that panel's normal.

#include <cmath>

#include "vortex/math/panel.hpp"

namespace vortex::bodies {

// A closest wall point; panel -1 where none was looked for, or where the wall was found farther
// than the reach asked for (closest_within): then `distance`, if above 0, is a lower bound of the
// distance to the wall.
struct WallPoint {
  int panel = -1;
  Vec3 point;           // closest point on the surface
  double distance = 0;  // signed: > 0 in the fluid, < 0 inside the body
  Vec3 normal;          // outward normal of the closest panel
};

// Closest point of triangle (a, b, c) to x, by the Voronoi regions of its vertices, edges and
// face.
VORTEX_HD Vec3 closest_point_on_triangle(const Vec3& x, const Vec3& a, const Vec3& b,
                                         const Vec3& c) {
  const Vec3 ab = b - a, ac = c - a, ap = x - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = x - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = x - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = 1 / (va + vb + vc);
  return a + (vb * denom) * ab + (vc * denom) * ac;
}

// The closest of the candidates given so far to x.
class ClosestPanel {
 public:
  VORTEX_HD explicit ClosestPanel(const Vec3& x) : x_(x) {}

  // Candidate panel j (p): taken when closer, or as close to rounding (of the distance and of the
  // panel's size: no absolute length, so that a body of any size is treated alike) and facing x
  // more directly.
  VORTEX_HD void consider(int j, const Panel& p) {
    const Vec3 y = closest_point_on_triangle(x_, p.v0, p.v1, p.v2);
    const double d = norm(x_ - y);
    const double align = d > 0 ? fabs(dot(x_ - y, p.normal)) / d : 1;
    const double rounding = 1e-12 * (d + p.diameter);
    const bool tie = fabs(d - best_d_) <= rounding;
    if (d < best_d_ - rounding || (tie && align > best_align_)) {
      best_d_ = d;
      best_align_ = align;
      best_.panel = j;
      best_.point = y;
      best_.normal = p.normal;
    }
  }

  // The closest point found (panel -1 if no candidate was given), its distance signed by the side
  // of its panel's plane.
  VORTEX_HD WallPoint result() const {
    WallPoint w = best_;
    if (w.panel >= 0) w.distance = dot(x_ - w.point, w.normal) >= 0 ? best_d_ : -best_d_;
    return w;
  }

 private:
  Vec3 x_;
  WallPoint best_;
  double best_d_ = INFINITY, best_align_ = -1;
};

// Whether q and the midpoint of the segment p q lie beyond the plane through `point` with outward
// `normal` by more than the rounding at the body's scale (its bounding box's diagonal). On a convex
// body, with the tangent plane of p's closest panel, the segment then stays in the fluid: the
// first test of the wall's segment test (WallQueries::blocked), and the device's particle control's
// only one.
VORTEX_HD bool beyond_tangent_plane(const Vec3& p, const Vec3& q, const Vec3& point,
                                    const Vec3& normal, double body_scale) {
  const double margin = 1e-12 * (norm(q - p) + body_scale);
  return dot(q - point, normal) > margin && dot(0.5 * (p + q) - point, normal) > margin;
}

// Whether x lies beyond the plane of a panel by more than the rounding at the body's scale: on a
// convex body, x is then outside it (the wall's inside test asks this of the nearest centroid's
// panel before it looks for the closest point).
VORTEX_HD bool beyond_panel_plane(const Vec3& x, const Panel& panel, double body_scale) {
  return dot(x - panel.centroid, panel.normal) > 1e-12 * body_scale;
}

// The wall's segment test (is the end q or the midpoint of the path from p inside the body?)
// where the ends' signed distances from the wall decide it: q inside (dq < 0), blocked (1); q in
// the fluid and the midpoint farther from the wall than max(dp, dq) less half the path's length,
// which bounds its distance from below, clear (0); else undecided (-1). Distances may be lower
// bounds where positive.
VORTEX_HD int path_by_distances(double dp, double dq, double length, double body_scale) {
  if (dq < 0) return 1;
  const double margin = 1e-12 * (length + body_scale);  // rounding at the body's scale
  if (dp > 0 && dq > 0 && fmax(dp, dq) - 0.5 * length > margin) return 0;
  return -1;
}

}  // namespace vortex::bodies
