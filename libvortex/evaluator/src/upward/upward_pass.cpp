// Upward pass: P2M on source leaves, M2M from children to parents level by level, and the
// velocity expansion of every node, normalized by the node's scale (multipole/expansion_scale.hpp).

#include <algorithm>

#include "tree/tree_plan.hpp"
#include "vortex/multipole/expansion_scale.hpp"
#include "vortex/multipole/multipole.hpp"

namespace vortex::detail {

void compute_multipoles(TreePlan& plan) {
  const KdTree& tree = plan.source_tree;
  const int p = plan.order;
  const int count = plan.coefficients_per_expansion();
  const int stride = 3 * count;
  const int num_nodes = static_cast<int>(tree.nodes.size());
  plan.multipoles.assign(static_cast<std::size_t>(num_nodes) * stride, 0.0);
  if (num_nodes == 0) return;
  const ParticleSet& s = plan.sources;

  const int num_leaves = static_cast<int>(tree.leaves.size());
#pragma omp parallel for schedule(dynamic, 4)
  for (int l = 0; l < num_leaves; ++l) {
    const KdNode& node = tree.nodes[tree.leaves[l]];
    double* M = plan.multipoles.data() + static_cast<std::size_t>(tree.leaves[l]) * stride;
    for (int j = node.begin; j < node.end; ++j) {
      multipole::p2m(p, s.x[j] - node.center[0], s.y[j] - node.center[1], s.z[j] - node.center[2],
                     s.gx[j], s.gy[j], s.gz[j], M);
    }
  }

  // Parents from children, deepest level first; nodes of one level are independent. The inner
  // nodes sorted by level (a counting sort into storage kept by the plan).
  int max_level = 0;
  for (const KdNode& n : tree.nodes) max_level = std::max(max_level, n.level);
  std::vector<int>& start = plan.level_start;
  std::vector<int>& order = plan.inner_by_level;
  start.assign(max_level + 2, 0);
  for (const KdNode& n : tree.nodes)
    if (!n.is_leaf()) ++start[n.level + 1];
  for (int l = 0; l <= max_level; ++l) start[l + 1] += start[l];
  order.resize(start[max_level + 1]);
  for (int k = 0; k < num_nodes; ++k)
    if (!tree.nodes[k].is_leaf()) order[start[tree.nodes[k].level]++] = k;
  for (int l = max_level; l > 0; --l) start[l] = start[l - 1];
  start[0] = 0;
  for (int level = max_level; level >= 0; --level) {
    const int* parents = order.data() + start[level];
    const int n = start[level + 1] - start[level];
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < n; ++i) {
      const KdNode& parent = tree.nodes[parents[i]];
      double* M = plan.multipoles.data() + static_cast<std::size_t>(parents[i]) * stride;
      for (int c = parent.first_child; c < parent.first_child + parent.num_children; ++c) {
        const KdNode& child = tree.nodes[c];
        multipole::m2m(p, child.center[0] - parent.center[0], child.center[1] - parent.center[1],
                       child.center[2] - parent.center[2],
                       plan.multipoles.data() + static_cast<std::size_t>(c) * stride, M);
      }
    }
  }

  const std::size_t vsize = multipole::velocity_expansion_size(p);
  plan.velocity_expansions.resize(static_cast<std::size_t>(num_nodes) * vsize);
#pragma omp parallel for schedule(static)
  for (int k = 0; k < num_nodes; ++k) {
    double* V = plan.velocity_expansions.data() + k * vsize;
    multipole::m2v(p, plan.multipoles.data() + static_cast<std::size_t>(k) * stride, V);
    multipole::normalize_velocity_expansion(p, multipole::scale_exponent(tree.nodes[k].radius), V);
  }
}

}  // namespace vortex::detail
