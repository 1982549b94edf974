#pragma once
// One flat triangular panel and its frame, as plain data for host and device code.

#include "vortex/math/vec3.hpp"

namespace vortex::bodies {

struct Panel {
  Vec3 v0, v1, v2;  // corners, ordered so that (v1 - v0) x (v2 - v0) points into the fluid
  Vec3 centroid;
  Vec3 normal;  // unit, outward (into the fluid)
  Vec3 t1, t2;  // unit tangents: t1 along the first edge, t2 = normal x t1
  double area = 0;
  double diameter = 0;  // longest edge
};

VORTEX_HD Panel make_panel(const Vec3& a, const Vec3& b, const Vec3& c) {
  Panel p;
  p.v0 = a;
  p.v1 = b;
  p.v2 = c;
  p.centroid = (1.0 / 3) * (a + b + c);
  const Vec3 area2 = cross(b - a, c - a);
  p.area = 0.5 * norm(area2);
  p.normal = normalized(area2);
  p.t1 = normalized(b - a);
  p.t2 = cross(p.normal, p.t1);
  const double e0 = norm(b - a), e1 = norm(c - b), e2 = norm(a - c);
  p.diameter = e0 > e1 ? (e0 > e2 ? e0 : e2) : (e1 > e2 ? e1 : e2);
  return p;
}

// The point of barycentric coordinates (b0, b1, b2).
VORTEX_HD Vec3 panel_point(const Panel& p, double b0, double b1, double b2) {
  return b0 * p.v0 + b1 * p.v1 + b2 * p.v2;
}

}  // namespace vortex::bodies
