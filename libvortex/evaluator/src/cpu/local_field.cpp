// The far field's local-expansion path on CPU threads (local_expansion_lists.hpp): M2L into the
// target nodes' local expansions, L2L down the target tree, L2P at the targets of each leaf that
// holds one. Local expansions are kept in double (many boxes add into one); L2P runs in the far
// field's arithmetic, as M2P does.

#include <omp.h>

#include "cpu/cpu_stages.hpp"
#include "cpu/far_field_leaves.hpp"
#include "vortex/kernels/order_dispatch.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/l2p.hpp"
#include "vortex/multipole/m2l.hpp"

namespace vortex::detail {

void m2l_cpu(const TreePlan& plan, const LocalExpansionLists& lists, double* locals) {
  const int p = plan.order, q = local_order(p);
  const std::size_t size = multipole::local_size(q), stride = 3 * plan.coefficients_per_expansion();
  const KdTree& tt = plan.target_tree;
  const int num_nodes = static_cast<int>(tt.nodes.size());
#pragma omp parallel for schedule(dynamic, 4)
  for (int t = 0; t < num_nodes; ++t) {
    if (!lists.has_local[t]) continue;
    double* L = locals + t * size;
    for (std::size_t k = 0; k < size; ++k) L[k] = 0;
    const double* c = tt.nodes[t].center;
    for (int k = lists.m2l_offsets[t]; k < lists.m2l_offsets[t + 1]; ++k) {
      const int s = lists.m2l_nodes[k];
      const double* cs = plan.source_tree.nodes[s].center;
      multipole::m2l(p, q, c[0] - cs[0], c[1] - cs[1], c[2] - cs[2],
                     plan.multipoles.data() + s * stride, L);
    }
  }
}

void l2l_cpu(const TreePlan& plan, const LocalExpansionLists& lists, double* locals) {
  const int q = local_order(plan.order);
  const std::size_t size = multipole::local_size(q);
  const KdTree& tt = plan.target_tree;
  const int levels = static_cast<int>(lists.level_start.size()) - 1;
  for (int level = 1; level < levels; ++level) {
    const int begin = lists.level_start[level], end = lists.level_start[level + 1];
#pragma omp parallel for schedule(dynamic, 8)
    for (int i = begin; i < end; ++i) {
      const int t = lists.by_level[i];
      const KdNode& node = tt.nodes[t];
      if (node.parent < 0 || !lists.has_local[node.parent]) continue;
      const double* c = node.center;
      const double* cp = tt.nodes[node.parent].center;
      multipole::l2l(q, c[0] - cp[0], c[1] - cp[1], c[2] - cp[2], locals + node.parent * size,
                     locals + t * size);
    }
  }
}

namespace {

template <int Q, class T>
void l2p_leaves(const TreePlan& plan, const LocalExpansionLists& lists, const double* locals,
                bool gradient, FarScratch<T>& scratch, ComponentArrays out) {
  constexpr int W = multipole::target_lane_count<T>();
  const std::size_t size = multipole::local_size(Q);
  const KdTree& tt = plan.target_tree;
  const Origin o = plan.origin();
  const int num_leaves = static_cast<int>(tt.leaves.size());
  const int components = gradient ? 12 : 3;
#pragma omp parallel
  {
    const int thread = omp_get_thread_num();
    T* x = scratch.x[thread];
    T* y = scratch.y[thread];
    T* z = scratch.z[thread];
    double* sums = scratch.sums[thread];
    T G[multipole::local_gradient_expansion_size(Q)];
#pragma omp for schedule(dynamic, 4)
    for (int leaf = 0; leaf < num_leaves; ++leaf) {
      const int node = tt.leaves[leaf];
      if (!lists.has_local[node]) continue;
      const KdNode& t = tt.nodes[node];
      const int padded =
          load_leaf_targets<W>(plan.targets.x.data(), plan.targets.y.data(), plan.targets.z.data(),
                               o, t, x, y, z, sums, components);
      multipole::local_gradient_expansion(Q, locals + node * size, G);
      const T c[3] = {static_cast<T>(t.center[0] - o.x), static_cast<T>(t.center[1] - o.y),
                      static_cast<T>(t.center[2] - o.z)};
      multipole::l2p_lanes<Q>(G, c, gradient, multipole::LeafLanes<T>{x, y, z, padded, sums});
      add_leaf_sums(t, sums, padded, components, out);
    }
  }
}

}  // namespace

template <class T>
void l2p_cpu(const TreePlan& plan, const LocalExpansionLists& lists, const double* locals,
             bool gradient, FarScratch<T>& scratch, ComponentArrays out) {
  size_far_scratch(plan, scratch);
  dispatch_order(plan.order, "l2p", [&](auto P) {
    l2p_leaves<local_order(decltype(P)::value)>(plan, lists, locals, gradient, scratch, out);
  });
}

template void l2p_cpu(const TreePlan&, const LocalExpansionLists&, const double*, bool,
                      FarScratch<double>&, ComponentArrays);
template void l2p_cpu(const TreePlan&, const LocalExpansionLists&, const double*, bool,
                      FarScratch<float>&, ComponentArrays);

}  // namespace vortex::detail
