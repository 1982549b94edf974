#pragma once
// The steps of a VAMSplit build shared by the host builder (kdtree.cpp) and the builder of a tree
// split over ranks (libvortex/mpi/): a cut of a range at its median along its widest dimension,
// and the nodes' bounds, centres and radii from their particles. Written for any record with a
// position `p[3]` and a core radius `sigma` rounded up to float.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tree/kdtree_topology.hpp"
#include "vortex/math/tree_node.hpp"

namespace vortex::detail {

// A point with its core radius (rounded up to float) and its index in the caller's order,
// partitioned in place: contiguous, 32 bytes, so no pass over the tree reads the caller's arrays
// at random.
struct TreeItem {
  double p[3];
  float sigma;
  std::uint32_t index;
};

inline float round_up_to_float(double v) {
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// The dimension of largest spread in [begin, end) (widest_spread): n times the variances, from
// sums of the offsets from `ref` and of their squares (offsets, so that clouds far from the origin
// do not cancel).
inline int widest_of_spreads(const double s1[3], const double s2[3], double n) {
  double spread[3];
  for (int k = 0; k < 3; ++k) spread[k] = s2[k] - s1[k] * s1[k] / n;
  return widest_spread(spread);
}

// Dimension of largest variance of the items in [begin, end), in one pass, offsets taken from the
// range's first point.
template <class Item>
int widest_dimension(const Item* items, int begin, int end) {
  const double* ref = items[begin].p;
  double s1[3] = {0, 0, 0}, s2[3] = {0, 0, 0};
  for (int i = begin; i < end; ++i)
    for (int k = 0; k < 3; ++k) {
      const double d = items[i].p[k] - ref[k];
      s1[k] += d;
      s2[k] += d * d;
    }
  return widest_of_spreads(s1, s2, end - begin);
}

// The order of a cut along dimension dim: by that coordinate, points equal on it by the next
// coordinate, then the third. A total order of positions, which a build over several ranks can
// reproduce (libvortex/mpi/): only points at the same place are left in any order.
template <class Item>
bool before(const Item& a, const Item& b, int dim) {
  for (int l = 0; l < 3; ++l) {
    const int d = (dim + l) % 3;
    if (a.p[d] != b.p[d]) return a.p[d] < b.p[d];
  }
  return false;
}

// The position of an adaptive cut of [begin, end) along `dim` (tree_node.hpp): one pass for the
// extent, one for the counts before and through its middle half.
template <class Item>
int adaptive_mid(const Item* items, int begin, int end, int bucket, int dim) {
  double lo = items[begin].p[dim], hi = lo;
  for (int i = begin + 1; i < end; ++i) {
    lo = std::min(lo, items[i].p[dim]);
    hi = std::max(hi, items[i].p[dim]);
  }
  double a, b;
  middle_half(lo, hi, a, b);
  long long below = 0, through = 0;
  for (int i = begin; i < end; ++i) {
    below += items[i].p[dim] < a;
    through += items[i].p[dim] <= b;
  }
  const int count = end - begin;
  return begin +
         adaptive_split_position(count, bucket, split_position(count, bucket), below, through);
}

template <class Item>
void cut(Item* items, const KdCut& c) {
  const int dim = widest_dimension(items, c.begin, c.end);
  std::nth_element(items + c.begin, items + c.mid, items + c.end,
                   [dim](const Item& a, const Item& b) { return before(a, b, dim); });
}

// Tight bounds and max sigma of a leaf from its particles.
template <class Item>
void bound_leaf(KdNode& node, const Item* items) {
  for (int k = 0; k < 3; ++k) node.lo[k] = node.hi[k] = items[node.begin].p[k];
  double max_sigma = 0;
  for (int i = node.begin; i < node.end; ++i) {
    for (int k = 0; k < 3; ++k) {
      node.lo[k] = std::min(node.lo[k], items[i].p[k]);
      node.hi[k] = std::max(node.hi[k], items[i].p[k]);
    }
    max_sigma = std::max(max_sigma, static_cast<double>(items[i].sigma));
  }
  node.max_sigma = max_sigma;
}

// The same for an inner node from its children, already bounded: min and max are exact, so the
// result equals a pass over the particles.
inline void bound_inner(KdNode& node, const KdNode* nodes) {
  const KdNode& first = nodes[node.first_child];
  for (int k = 0; k < 3; ++k) node.lo[k] = first.lo[k], node.hi[k] = first.hi[k];
  node.max_sigma = first.max_sigma;
  for (int c = node.first_child + 1; c < node.first_child + node.num_children; ++c) {
    for (int k = 0; k < 3; ++k) {
      node.lo[k] = std::min(node.lo[k], nodes[c].lo[k]);
      node.hi[k] = std::max(node.hi[k], nodes[c].hi[k]);
    }
    node.max_sigma = std::max(node.max_sigma, nodes[c].max_sigma);
  }
}

inline void set_center(KdNode& node) {
  for (int k = 0; k < 3; ++k) node.center[k] = 0.5 * (node.lo[k] + node.hi[k]);
}

// The largest squared distance from a point to the items in [begin, end).
template <class Item>
double farthest_squared(const double c[3], const Item* items, int begin, int end) {
  double r2 = 0;
  for (int i = begin; i < end; ++i) {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double d = items[i].p[k] - c[k];
      d2 += d * d;
    }
    r2 = std::max(r2, d2);
  }
  return r2;
}

// Bounds, centers and radii (not yet floored) of every node, one level at a time from the deepest
// up. `order` and `level_start` are scratch kept by the caller: the nodes sorted by level.
template <class Item>
void measure_nodes(std::vector<KdNode>& nodes, const Item* items, std::vector<int>& order,
                   std::vector<int>& level_start) {
  int depth = 0;
  for (const KdNode& node : nodes) depth = std::max(depth, node.level);
  level_start.assign(depth + 2, 0);
  for (const KdNode& node : nodes) ++level_start[node.level + 1];
  for (int l = 0; l < depth + 1; ++l) level_start[l + 1] += level_start[l];
  order.resize(nodes.size());
  for (int k = 0; k < static_cast<int>(nodes.size()); ++k) order[level_start[nodes[k].level]++] = k;
  for (int l = depth; l > 0; --l) level_start[l] = level_start[l - 1];  // back to the starts
  level_start[0] = 0;
  for (int level = depth; level >= 0; --level) {
    const int* ids = order.data() + level_start[level];
    const int count = level_start[level + 1] - level_start[level];
#pragma omp taskloop grainsize(8) default(shared)
    for (int i = 0; i < count; ++i) {
      KdNode& node = nodes[ids[i]];
      if (node.is_leaf())
        bound_leaf(node, items);
      else
        bound_inner(node, nodes.data());
      set_center(node);
      node.radius = std::sqrt(farthest_squared(node.center, items, node.begin, node.end));
    }
  }
}

// Radii below `floor` (kRadiusFloor of the root's) are raised to it: a box of coincident
// particles (radius 0) then needs a positive distance to be far, and the box's scale
// (multipole/expansion_scale.hpp) keeps every normalized target offset of its M2P at least
// 1 / (2 theta) long.
inline void floor_radii(std::vector<KdNode>& nodes, double floor) {
  for (KdNode& node : nodes) node.radius = std::max(node.radius, floor);
}

}  // namespace vortex::detail
