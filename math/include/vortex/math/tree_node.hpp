#pragma once
// One node of a VAMSplit k-d tree (vortex/kdtree.hpp), a flat record shared by the host builder,
// the device builder and the list walks on both sides.

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

}  // namespace vortex
