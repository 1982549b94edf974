#pragma once
// The far field's choice between M2P and local expansions (docs/methods/treecode.md, section 4),
// shared by the host's and the device's builds of the local-expansion lists: which source nodes a
// target node's local expansion may take (m2l_accepts), and whether taking them pays by the cost
// model of the backend that runs (local_may_pay, local_pays). The same decisions, written once, so
// that both builds give the same lists for the same costs.

#include <cmath>

#include "vortex/math/far_field_kind.hpp"
#include "vortex/math/hd.hpp"
#include "vortex/math/tree_node.hpp"

namespace vortex {

// True when the local expansion about the target node's centre may stand for the source node's
// multipole expansion at every target in it: (r_s + r_T) < theta |c_s - c_T|.
VORTEX_HD bool m2l_accepts(const KdNode& target, const KdNode& source, double theta) {
  const double d[3] = {source.center[0] - target.center[0], source.center[1] - target.center[1],
                       source.center[2] - target.center[2]};
  const double distance = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  return source.radius + target.radius < theta * distance;
}

// Whether M2L at a node of `targets` targets can ever be cheaper than M2P (one M2L against one
// source node's M2P there). Local always says yes, M2P no.
VORTEX_HD bool local_may_pay(FarField mode, const FarFieldCosts& c, double targets) {
  return mode == FarField::Local || (mode == FarField::Auto && targets * c.m2p_target > c.m2l);
}

// Whether a node of n targets that holds `subtree` nodes takes its k candidate M2L entries, where
// `local_above` says whether a parent's local expansion reaches it anyway (so that L2L and L2P
// cost nothing more).
VORTEX_HD bool local_pays(FarField mode, const FarFieldCosts& c, int k, double n, int subtree,
                          bool local_above) {
  if (k == 0 || mode == FarField::M2P) return false;
  if (mode == FarField::Local) return true;
  const double local = k * c.m2l + (local_above ? 0 : n * c.l2p_target + (subtree - 1) * c.l2l);
  return local < k * n * c.m2p_target;
}

}  // namespace vortex
