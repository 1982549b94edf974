#pragma once
// The acceptance rule of the interaction lists (DESIGN.md section 3), shared by the host and the
// device list walks: when may a source node be replaced by its multipole expansion for every
// target of a target box.

#include <cmath>

#include "vortex/kernels/hd.hpp"
#include "vortex/kernels/tree_node.hpp"

namespace vortex {

struct AcceptanceCriteria {
  double theta = 0.6;  // far only if source radius <= theta * distance(source center, target box)
  double kappa = 2.5;  // far only if gap between the boxes >= kappa * max sigma of the source box
};

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

// True when the source node may be approximated by its multipoles for every target in the box: it
// is strictly separated from the box (no source at a target) and both criteria hold.
VORTEX_HD bool is_far(const KdNode& target, const KdNode& source,
                      const AcceptanceCriteria& criteria) {
  // (a) geometric: the expansion converges like (radius / distance)^(p+1) at every target. The
  // distance must be positive: a box of zero extent at zero distance (a lone particle, coincident
  // particles) would pass, and its expansion would be evaluated at its own centre. With a positive
  // distance and theta < 1 no source can sit at a target.
  const double distance = acceptance::point_box_distance(source.center, target);
  if (!(distance > 0 && source.radius <= criteria.theta * distance)) return false;
  // (b) core: no regularized pair is approximated by the singular expansion.
  return acceptance::box_gap(target, source) >= criteria.kappa * source.max_sigma;
}

}  // namespace vortex
