#include "vortex/neighbor_search.hpp"

#include <algorithm>
#include <limits>

namespace vortex {

namespace {

// Squared distance from q to the box [lo, hi] (0 inside).
double box_distance2(const KdNode& node, const double q[3]) {
  double d2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double below = node.lo[k] - q[k];
    const double above = q[k] - node.hi[k];
    const double d = std::max({below, above, 0.0});
    d2 += d * d;
  }
  return d2;
}

}  // namespace

NeighborSearch::NeighborSearch(PointsView points, int bucket) {
  const std::size_t n = points.size();
  x_.resize(n);
  y_.resize(n);
  z_.resize(n);
  KdTreeBuilder().build(points, nullptr, bucket, 2, tree_, {x_.data(), y_.data(), z_.data()});
}

void NeighborSearch::query(double qx, double qy, double qz, double radius,
                           std::vector<int>& out) const {
  out.clear();
  if (tree_.nodes.empty() || !(radius >= 0)) return;
  const double q[3] = {qx, qy, qz};
  const double r2 = radius * radius;
  // Depth-first walk with an explicit stack; depth is logarithmic, children are contiguous.
  int stack[256];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const KdNode& node = tree_.nodes[stack[--top]];
    if (box_distance2(node, q) > r2) continue;
    if (node.is_leaf()) {
      for (int i = node.begin; i < node.end; ++i) {
        const double dx = x_[i] - qx, dy = y_[i] - qy, dz = z_[i] - qz;
        if (dx * dx + dy * dy + dz * dz <= r2)
          out.push_back(static_cast<int>(tree_.permutation[i]));
      }
      continue;
    }
    for (int c = 0; c < node.num_children && top < 256; ++c) stack[top++] = node.first_child + c;
  }
  std::sort(out.begin(), out.end());
}

int NeighborSearch::nearest(double qx, double qy, double qz, double* dist2) const {
  int best = -1;
  double best2 = std::numeric_limits<double>::infinity();
  if (!tree_.nodes.empty()) {
    const double q[3] = {qx, qy, qz};
    int stack[256];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const KdNode& node = tree_.nodes[stack[--top]];
      if (box_distance2(node, q) > best2) continue;
      if (node.is_leaf()) {
        for (int i = node.begin; i < node.end; ++i) {
          const double dx = x_[i] - qx, dy = y_[i] - qy, dz = z_[i] - qz;
          const double d2 = dx * dx + dy * dy + dz * dz;
          const int index = static_cast<int>(tree_.permutation[i]);
          if (d2 < best2 || (d2 == best2 && index < best)) {
            best2 = d2;
            best = index;
          }
        }
        continue;
      }
      // Visit the nearer child last so it is popped first and tightens the bound early.
      int order[8];
      const int nc = std::min(node.num_children, 8);
      for (int c = 0; c < nc; ++c) order[c] = node.first_child + c;
      double key[8];
      for (int c = 0; c < nc; ++c) key[c] = box_distance2(tree_.nodes[order[c]], q);
      for (int c = 1; c < nc; ++c)  // insertion sort, farthest first
        for (int k = c; k > 0 && key[k - 1] < key[k]; --k) {
          std::swap(key[k - 1], key[k]);
          std::swap(order[k - 1], order[k]);
        }
      for (int c = 0; c < nc && top < 256; ++c) stack[top++] = order[c];
    }
  }
  if (dist2) *dist2 = best2;
  return best;
}

NeighborLists NeighborSearch::all_within(PointsView queries, double radius) const {
  const std::size_t n = queries.size();
  std::vector<std::vector<int>> found(n);
#pragma omp parallel if (n > 2000)
  {
    std::vector<int> buffer;
#pragma omp for schedule(dynamic, 256)
    for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
      query(queries.x[i], queries.y[i], queries.z[i], radius, buffer);
      found[i] = buffer;
    }
  }
  NeighborLists lists;
  lists.offsets.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) lists.offsets[i + 1] = lists.offsets[i] + found[i].size();
  lists.indices.resize(lists.offsets[n]);
  for (std::size_t i = 0; i < n; ++i)
    std::copy(found[i].begin(), found[i].end(), lists.indices.begin() + lists.offsets[i]);
  return lists;
}

}  // namespace vortex
