#include "vortex/interaction_lists.hpp"

#include <algorithm>
#include <cmath>

namespace vortex {

namespace {

// Distance from a point to an axis-aligned box (0 inside).
double point_box_distance(const double p[3], const KdNode& box) {
  double d2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double d = std::max({box.lo[k] - p[k], 0.0, p[k] - box.hi[k]});
    d2 += d * d;
  }
  return std::sqrt(d2);
}

// Gap between two boxes (0 when they touch or overlap).
double box_gap(const KdNode& a, const KdNode& b) {
  double d2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double d = std::max({a.lo[k] - b.hi[k], 0.0, b.lo[k] - a.hi[k]});
    d2 += d * d;
  }
  return std::sqrt(d2);
}

}  // namespace

bool is_far(const KdNode& target, const KdNode& source, const AcceptanceCriteria& criteria) {
  // (a) geometric: the expansion converges like (radius / distance)^(p+1) at every target. The
  // distance must be positive: a box of zero extent at zero distance (a lone particle, coincident
  // particles) would pass, and its expansion would be evaluated at its own centre. With a positive
  // distance and theta < 1 no source can sit at a target.
  const double distance = point_box_distance(source.center, target);
  if (!(distance > 0 && source.radius <= criteria.theta * distance)) return false;
  // (b) core: no regularized pair is approximated by the singular expansion.
  return box_gap(target, source) >= criteria.kappa * source.max_sigma;
}

InteractionLists build_interaction_lists(const KdTree& targets, const KdTree& sources,
                                         const AcceptanceCriteria& criteria) {
  const int num_leaves = static_cast<int>(targets.leaves.size());
  std::vector<std::vector<int>> near(num_leaves), far(num_leaves);
  if (!sources.nodes.empty()) {
#pragma omp parallel
    {
      std::vector<int> stack;
#pragma omp for schedule(dynamic, 4)
      for (int i = 0; i < num_leaves; ++i) {
        const KdNode& target = targets.nodes[targets.leaves[i]];
        stack.assign(1, 0);
        while (!stack.empty()) {
          const int s = stack.back();
          stack.pop_back();
          const KdNode& source = sources.nodes[s];
          if (is_far(target, source, criteria)) {
            far[i].push_back(s);
          } else if (source.is_leaf()) {
            near[i].push_back(s);
          } else {
            // Push in reverse so children are visited in tree order.
            for (int c = source.num_children - 1; c >= 0; --c)
              stack.push_back(source.first_child + c);
          }
        }
      }
    }
  }
  InteractionLists lists;
  auto flatten = [num_leaves](const std::vector<std::vector<int>>& per_leaf,
                              std::vector<int>& offsets, std::vector<int>& entries) {
    offsets.assign(num_leaves + 1, 0);
    for (int i = 0; i < num_leaves; ++i)
      offsets[i + 1] = offsets[i] + static_cast<int>(per_leaf[i].size());
    entries.resize(offsets[num_leaves]);
#pragma omp parallel for schedule(static)
    for (int i = 0; i < num_leaves; ++i)
      std::copy(per_leaf[i].begin(), per_leaf[i].end(), entries.begin() + offsets[i]);
  };
  flatten(near, lists.near_offsets, lists.near_nodes);
  flatten(far, lists.far_offsets, lists.far_nodes);
  return lists;
}

}  // namespace vortex
