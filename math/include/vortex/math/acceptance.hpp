#pragma once
// The acceptance rule of the interaction lists (docs/methods/treecode.md, section 3), shared by the
// host and the device list walks: when may a source node be replaced by its multipole expansion for
// every target of a target box.

#include <cmath>

#include "vortex/math/hd.hpp"
#include "vortex/math/tree_node.hpp"

namespace vortex {

struct AcceptanceCriteria {
  double theta = 0.6;  // far only if source radius <= theta * distance(source center, target box)
  double kappa = 2.5;  // far only if gap between the boxes >= kappa * max sigma of the source box
  // Each far box's order (far_order): the expansions' order p, and the bound that
  // (radius / distance)^(q+1) must meet for a box to be evaluated at order q < p. A bound of 0
  // evaluates every box at p.
  int order = 0;
  double order_bound = 0;
};

// A far box is evaluated at the lowest order q <= p whose truncation factor rho^(q+1),
// rho = radius / distance, is within this fraction of theta^(p+1), the factor of order p at the
// acceptance limit: boxes well inside the limit need fewer terms for the same accuracy. With 1/4,
// the mean errors of the cube and the Plummer sphere of 1e6 at p = 9 rose by 23 % and 2 %, and the
// M2P terms fell to 61 % and 44 % (docs/PERFORMANCE.md).
constexpr double kFarOrderSlack = 0.25;

// The criteria with per-box orders for expansions of order p (uniform: every box at p).
inline AcceptanceCriteria criteria_with_orders(double theta, double kappa, int p, bool uniform) {
  AcceptanceCriteria c{theta, kappa, p, 0};
  if (!uniform) c.order_bound = kFarOrderSlack * std::pow(theta, p + 1);
  return c;
}

namespace acceptance {

VORTEX_HD double outside(double lo, double x, double hi) {
  return fmax(fmax(lo - x, 0.0), x - hi);
}

// Distance from a point to an axis-aligned box (0 inside).
VORTEX_HD double point_box_distance(const double p[3], const KdNode& box) {
  double d2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double d = outside(box.lo[k], p[k], box.hi[k]);
    d2 += d * d;
  }
  return sqrt(d2);
}

// Gap between two boxes (0 when they touch or overlap).
VORTEX_HD double box_gap(const KdNode& a, const KdNode& b) {
  double d2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double d = fmax(fmax(a.lo[k] - b.hi[k], 0.0), b.lo[k] - a.hi[k]);
    d2 += d * d;
  }
  return sqrt(d2);
}

}  // namespace acceptance

// 0 when the source node may not be approximated by its multipoles for every target in the box;
// else the order it is evaluated at: the lowest q in [1, p] with rho^(q+1) <= order_bound,
// rho = radius / distance (kFarOrderSlack above), or p without a bound. Far means strictly
// separated from the box (no source at a target) with both criteria holding. Products only, so
// that the host and the device walks pick the same orders.
VORTEX_HD int far_order(const KdNode& target, const KdNode& source,
                        const AcceptanceCriteria& criteria) {
  // (a) geometric: the expansion converges like (radius / distance)^(p+1) at every target. The
  // distance must be positive: a box of zero extent at zero distance (a lone particle, coincident
  // particles) would pass, and its expansion would be evaluated at its own centre. With a positive
  // distance and theta < 1 no source can sit at a target.
  const double distance = acceptance::point_box_distance(source.center, target);
  if (!(distance > 0 && source.radius <= criteria.theta * distance)) return 0;
  // (b) core: no regularized pair is approximated by the singular expansion.
  if (!(acceptance::box_gap(target, source) >= criteria.kappa * source.max_sigma)) return 0;
  const int p = criteria.order > 1 ? criteria.order : 1;
  if (!(criteria.order_bound > 0)) return p;
  const double rho = source.radius / distance;
  double factor = rho * rho;  // rho^(q+1) at q = 1
  int q = 1;
  while (q < p && factor > criteria.order_bound) {
    factor *= rho;
    ++q;
  }
  return q;
}

// True when the source node may be approximated by its multipoles for every target in the box.
VORTEX_HD bool is_far(const KdNode& target, const KdNode& source,
                      const AcceptanceCriteria& criteria) {
  return far_order(target, source, criteria) > 0;
}

}  // namespace vortex
