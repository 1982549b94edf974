#pragma once
// One particle's exact near-wall term of the BEM right-hand side, written once for host and device
// code: the panel average of the point vortex g at x,
//   (1/A) int_P g x (y - x) / (4 pi |y - x|^3) dS_y = (1 / (4 pi A)) K(x) x g,
// (K of panel_influence.hpp, by reciprocity with the panel's source field), less what the cored
// particle gives at the panel's quadrature points, which the far-field product already counts.

#include "vortex/math/core_function.hpp"
#include "vortex/math/panel_influence.hpp"

namespace vortex::bodies {

// The quadrature rule as plain arrays (device code cannot read TriangleRule's vectors).
struct RuleView {
  const double (*bary)[3] = nullptr;
  const double* weight = nullptr;
  int size = 0;
};

VORTEX_HD Vec3 near_wall_term(const Panel& panel, RuleView rule, Core core, const Vec3& x,
                              const Vec3& g, double inv_sigma) {
  constexpr double inv4pi = 0.07957747154594767;  // 1 / (4 pi)
  Vec3 v = (inv4pi / panel.area) * cross(panel_field_exact(panel, x), g);
  for (int t = 0; t < rule.size; ++t) {
    const Vec3 y = panel_point(panel, rule.bary[t][0], rule.bary[t][1], rule.bary[t][2]);
    const Vec3 r = y - x;
    const double f = core_factors(core, dot(r, r), inv_sigma).F;
    v += (-inv4pi * rule.weight[t] * f) * cross(g, r);
  }
  return v;
}

// Whether the particle at x with reach `reach` (its distance to the wall is below it) adds its term
// to the panel whose centroid is c: within its reach plus the largest panel diameter.
VORTEX_HD bool near_wall_pair(const Vec3& c, const Vec3& x, double reach, double max_diameter) {
  const Vec3 d = c - x;
  const double r = reach + max_diameter;
  return dot(d, d) <= r * r;
}

}  // namespace vortex::bodies
