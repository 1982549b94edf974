#pragma once
// One node of a VAMSplit k-d tree (vortex/kdtree.hpp), a flat record shared by the host builder,
// the device builder and the list walks on both sides; and the builders' choice of the dimension
// to cut.

#include "vortex/math/hd.hpp"

namespace vortex {

// Smallest node radius, as a fraction of the root's (2^-30): below it a box is treated as having
// this radius (see the builders), so that coincident particles form no box of zero extent.
constexpr double kRadiusFloor = 9.313225746154785e-10;

struct KdNode {
  int begin = 0, end = 0;  // range in tree order
  int first_child = -1;    // children are contiguous: [first_child, first_child + num_children)
  int num_children = 0;    // 0 for a leaf
  int parent = -1;
  int level = 0;
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};  // tight bounds of the particles
  double center[3] = {0, 0, 0};                 // box center, the expansion center
  double radius =
      0;  // largest distance from center to a particle, at least kRadiusFloor of the root's
  double max_sigma = 0;  // largest core radius inside, rounded up to float (0 without sigma)

  constexpr bool is_leaf() const { return num_children == 0; }
  constexpr int count() const { return end - begin; }
};

// Binary cuts per node level of a tree of 2, 4 or 8 children a node.
VORTEX_HD constexpr int binary_levels(int arity) {
  return arity == 2 ? 1 : arity == 4 ? 2 : 3;
}

// Spreads within this fraction of the largest are equal for the choice of the dimension to cut:
// far above the rounding of sums taken in another order (or over ranks), far below a difference
// that would change a tree's quality.
constexpr double kSpreadTie = 1e-8;

// The dimension a node is cut along, given n times the variances of its points per dimension: the
// widest, the lowest of those within kSpreadTie of it. So the points' order, which rounds the
// sums differently, does not choose between the equal spreads of a ring or a lattice.
VORTEX_HD int widest_spread(const double spread[3]) {
  double best = spread[0];
  for (int k = 1; k < 3; ++k) best = spread[k] > best ? spread[k] : best;
  const double floor = best - kSpreadTie * (best < 0 ? -best : best);
  for (int k = 0; k < 2; ++k)
    if (spread[k] >= floor) return k;
  return 2;
}

// Adaptive cuts (docs/methods/treecode.md, section 3). A count-balanced cut through a dense core
// leaves slabs that reach into sparse outskirts, and their last pieces are needles: on a Plummer
// sphere of 1e6, leaves ten times longer than wide that fail the acceptance test for every target,
// so that each target summed 21,000 sources directly against 1,600 in a cube. So a large piece (at
// least 1/kAdaptiveCutShare of the tree's points and kAdaptiveCutMin points) at a binary depth
// below kAdaptiveCutDepths is cut at its median only where the median lies in the middle half of
// its extent along the cut; elsewhere at the bucket multiple nearest the count of points before
// that half (or through it), which peels the sparse side off. The depth limit bounds the tree's
// depth whatever the data.
constexpr int kAdaptiveCutShare = 64;
constexpr int kAdaptiveCutMin = 1024;
constexpr int kAdaptiveCutDepths = 30;

// Whether a piece of `count` of the tree's `whole` points, at binary depth `depth`, is cut
// adaptively.
VORTEX_HD bool is_adaptive_cut(long long count, long long whole, int depth) {
  const long long share = whole / kAdaptiveCutShare;
  return count >= (share > kAdaptiveCutMin ? share : kAdaptiveCutMin) && depth < kAdaptiveCutDepths;
}

// The middle half [a, b] of [lo, hi]. Products by 1/4 are exact (but for subnormals), so a fused
// multiply-add rounds as the separate operations do, on the host and on the device; no difference
// of the bounds is formed, which could overflow.
VORTEX_HD void middle_half(double lo, double hi, double& a, double& b) {
  const double quarter = 0.25 * hi - 0.25 * lo;
  a = lo + quarter;
  b = hi - quarter;
}

// The position (points on the left) of an adaptive cut of `count` points, given the median's
// position `median` (a multiple of the bucket size), the points strictly before the middle half
// (`below`) and those up to its end (`through`).
VORTEX_HD int adaptive_split_position(int count, int bucket, int median, long long below,
                                      long long through) {
  if (median >= below && median <= through) return median;
  const long long want = median < below ? below : through;
  long long mid = (want + bucket / 2) / bucket * bucket;
  // Inside the piece, the left side whole leaves: every leaf but one stays full.
  if (mid < bucket) mid = bucket;
  if (mid > count - 1) mid = (count - 1) / bucket * bucket;
  return static_cast<int>(mid);
}

}  // namespace vortex
