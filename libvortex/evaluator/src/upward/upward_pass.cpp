// Upward pass: P2M on source leaves, M2M from children to parents level by level, and the
// velocity expansion of every node, normalized by the node's scale (multipole/expansion_scale.hpp).

#include <algorithm>

#include "tree/tree_plan.hpp"
#include "vortex/multipole/expansion_scale.hpp"
#include "vortex/multipole/multipole.hpp"

namespace vortex::detail {

void add_children_multipoles(int order, const KdNode* nodes, int parent, double* multipoles) {
  const std::size_t stride = 3 * static_cast<std::size_t>(order + 1) * (order + 1);
  const KdNode& node = nodes[parent];
  double* M = multipoles + static_cast<std::size_t>(parent) * stride;
  for (int c = node.first_child; c < node.first_child + node.num_children; ++c) {
    const KdNode& child = nodes[c];
    multipole::m2m(order, child.center[0] - node.center[0], child.center[1] - node.center[1],
                   child.center[2] - node.center[2],
                   multipoles + static_cast<std::size_t>(c) * stride, M);
  }
}

void upward_multipoles(const KdTree& tree, const ParticleSet& s, int p,
                       std::vector<double>& multipoles, std::vector<int>& order,
                       std::vector<int>& start) {
  const int count = (p + 1) * (p + 1);
  const int stride = 3 * count;
  const int num_nodes = static_cast<int>(tree.nodes.size());
  multipoles.assign(static_cast<std::size_t>(num_nodes) * stride, 0.0);
  if (num_nodes == 0) return;

  const int num_leaves = static_cast<int>(tree.leaves.size());
#pragma omp parallel for schedule(dynamic, 4)
  for (int l = 0; l < num_leaves; ++l) {
    const KdNode& node = tree.nodes[tree.leaves[l]];
    double* M = multipoles.data() + static_cast<std::size_t>(tree.leaves[l]) * stride;
    for (int j = node.begin; j < node.end; ++j) {
      multipole::p2m(p, s.x[j] - node.center[0], s.y[j] - node.center[1], s.z[j] - node.center[2],
                     s.gx[j], s.gy[j], s.gz[j], M);
    }
  }

  // Parents from children, deepest level first; nodes of one level are independent. The inner
  // nodes sorted by level (a counting sort into storage kept by the caller).
  int max_level = 0;
  for (const KdNode& n : tree.nodes) max_level = std::max(max_level, n.level);
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
    for (int i = 0; i < n; ++i)
      add_children_multipoles(p, tree.nodes.data(), parents[i], multipoles.data());
  }
}

void compute_multipoles(TreePlan& plan) {
  const KdTree& tree = plan.source_tree;
  const int p = plan.order;
  const int stride = 3 * plan.coefficients_per_expansion();
  const int num_nodes = static_cast<int>(tree.nodes.size());
  if (!plan.multipoles_given)
    upward_multipoles(tree, plan.sources, p, plan.multipoles, plan.inner_by_level,
                      plan.level_start);
  if (num_nodes == 0) return;

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
