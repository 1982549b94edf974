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

}  // namespace vortex
