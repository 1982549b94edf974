#pragma once
// The field of a flat triangular panel, written once for host and device code.
//
// For the unit source panel Phi(x) = 1/(4 pi) int_P dS / |x - y| the gradient is
// grad Phi = -K / (4 pi) with K(x) = int_P (x - y) / |x - y|^3 dS. In closed form,
//   K = Omega n + sum_edges m_e ln((R_a + R_b + L) / (R_a + R_b - L)),
// Omega the signed solid angle that the panel subtends at x (Van Oosterom & Strackee 1983),
// positive on the side the normal points to; the edge terms follow from the surface gradient
// theorem applied to 1/|x - y| (m_e the unit in-plane outward normal of the edge, L its length,
// R_a and R_b the distances to its ends). In the panel's plane the solid angle is taken as 0: the
// principal value.
//
// A uniform vortex sheet gamma on the panel induces u = grad Phi x gamma = gamma x K / (4 pi),
// which jumps by gamma x n across the panel (Omega goes from -2 pi to 2 pi). Far from the panel
// the point-source form K ~ sum_q A w_q (x - y_q) / |x - y_q|^3 is used.

#include "vortex/math/panel.hpp"

namespace vortex::bodies {

// Signed solid angle of triangle (a, b, c) at x, positive on the side of (b - a) x (c - a);
// zero in the triangle's plane.
VORTEX_HD double solid_angle(const Vec3& x, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 r1 = a - x, r2 = b - x, r3 = c - x;
  const double l1 = norm(r1), l2 = norm(r2), l3 = norm(r3);
  const double num = dot(r1, cross(r2, r3));
  const double den = l1 * l2 * l3 + dot(r1, r2) * l3 + dot(r1, r3) * l2 + dot(r2, r3) * l1;
  if (fabs(num) <= 1e-14 * l1 * l2 * l3) return 0.0;
  return -2.0 * atan2(num, den);
}

// int over the segment (a, b) of dl / |x - y| = ln((R_b + t_b) / (R_a + t_a)), t the coordinate
// along the edge from x's foot point; R + t is rewritten as rho^2 / (R - t) where it cancels.
VORTEX_HD double edge_log(const Vec3& x, const Vec3& a, const Vec3& b, double length) {
  const Vec3 e = (1.0 / length) * (b - a);
  const Vec3 da = a - x;
  const double ta = dot(da, e), tb = ta + length;
  const double ra = norm(da), rb = norm(b - x);
  if (tb <= 0) return log((ra - ta) / (rb - tb));
  const Vec3 perp = da - ta * e;
  const double tiny = 1e-200 * length;  // on the edge itself: a cap relative to the edge
  const double lower = ta >= 0 ? ra + ta : dot(perp, perp) / (ra - ta);
  return log((rb + tb) / (lower > tiny ? lower : tiny));
}

// K(x) = int_P (x - y) / |x - y|^3 dS, exact.
VORTEX_HD Vec3 panel_field_exact(const Panel& p, const Vec3& x) {
  Vec3 k = solid_angle(x, p.v0, p.v1, p.v2) * p.normal;
  const Vec3* v[3] = {&p.v0, &p.v1, &p.v2};
  for (int e = 0; e < 3; ++e) {
    const Vec3& a = *v[e];
    const Vec3& b = *v[(e + 1) % 3];
    const Vec3 edge = b - a;
    const double length = norm(edge);
    const Vec3 m = (1.0 / length) * cross(edge, p.normal);  // outward in-plane edge normal
    k += edge_log(x, a, b, length) * m;
  }
  return k;
}

// K(x) by point sources at the quadrature points `bary` (count points, weights sum to 1).
VORTEX_HD Vec3 panel_field_points(const Panel& p, const Vec3& x, const double (*bary)[3],
                                  const double* weight, int count) {
  Vec3 k;
  for (int q = 0; q < count; ++q) {
    const Vec3 d = x - panel_point(p, bary[q][0], bary[q][1], bary[q][2]);
    const double r2 = dot(d, d);
    if (r2 == 0) continue;  // a point on itself: no self term
    k += (p.area * weight[q] / (r2 * sqrt(r2))) * d;
  }
  return k;
}

// Velocity of the uniform sheet gamma on the panel: gamma x K / (4 pi).
VORTEX_HD Vec3 sheet_velocity(const Vec3& gamma, const Vec3& k) {
  const double inv4pi = 0.079577471545947667884;
  return inv4pi * cross(gamma, k);
}

// The sheet's velocity at x: exact within `near_distance` of the centroid, the centroid point
// source beyond (relative error ~ (diameter / distance)^2).
VORTEX_HD Vec3 panel_sheet_velocity(const Panel& p, const Vec3& gamma, const Vec3& x,
                                    double near_distance) {
  const Vec3 d = x - p.centroid;
  const double r2 = dot(d, d);
  if (r2 < near_distance * near_distance) return sheet_velocity(gamma, panel_field_exact(p, x));
  return sheet_velocity(gamma, (p.area / (r2 * sqrt(r2))) * d);
}

}  // namespace vortex::bodies
