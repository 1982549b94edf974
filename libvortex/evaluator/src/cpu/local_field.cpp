// The far field's local-expansion path on CPU threads (local_expansion_lists.hpp): each target node
// that holds a local expansion gets its parent's by L2L and adds its own M2L list; each such leaf
// then evaluates it at its targets (L2P). One walk over the target tree, parents first, the
// subtrees below a level one per thread (subtree_walks.hpp), so that the three operations share
// one parallel loop. Local expansions are kept in double (many boxes add into one); L2P runs in
// the far field's arithmetic, as M2P does.

#include <omp.h>

#include <chrono>

#include "cpu/cpu_stages.hpp"
#include "cpu/far_field_leaves.hpp"
#include "subtree_walks.hpp"
#include "vortex/kernels/order_dispatch.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/l2p.hpp"
#include "vortex/multipole/m2l.hpp"

namespace vortex::detail {

namespace {

using Clock = std::chrono::steady_clock;

// The L2P of leaf `node` at its targets, added to `out`. Not inlined: its scratch stays out of the
// frames of the tree walk's recursion.
template <int Q, class T>
__attribute__((noinline)) void l2p_leaf(const TreePlan& plan, int node, const double* L,
                                        bool gradient, FarScratch<T>& scratch,
                                        ComponentArrays out) {
  constexpr int W = multipole::target_lane_count<T>();
  const int thread = omp_get_thread_num(), components = gradient ? 12 : 3;
  const KdNode& t = plan.target_tree.nodes[node];
  const Origin o = plan.origin();
  T* x = scratch.x[thread];
  T* y = scratch.y[thread];
  T* z = scratch.z[thread];
  double* sums = scratch.sums[thread];
  const int padded = load_leaf_targets<W>(plan.targets.x.data(), plan.targets.y.data(),
                                          plan.targets.z.data(), o, t, x, y, z, sums, components);
  T G[multipole::local_gradient_expansion_size(Q)];
  multipole::local_gradient_expansion(Q, L, G);
  const T c[3] = {static_cast<T>(t.center[0] - o.x), static_cast<T>(t.center[1] - o.y),
                  static_cast<T>(t.center[2] - o.z)};
  multipole::l2p_lanes<Q>(G, c, gradient, multipole::LeafLanes<T>{x, y, z, padded, sums});
  add_leaf_sums(t, sums, padded, components, out);
}

template <int Q, class T>
void local_walk(const TreePlan& plan, const LocalExpansionLists& lists, double* locals,
                bool gradient, FarScratch<T>& scratch, ComponentArrays out, LocalTimes& times) {
  const int p = plan.order;
  const std::size_t size = multipole::local_size(Q), stride = 3 * plan.coefficients_per_expansion();
  const KdTree& tt = plan.target_tree;
  // Seconds of each operation: on one thread above the split level, summed over the threads below.
  double serial[3] = {0, 0, 0}, parallel[3] = {0, 0, 0};
  top_down(tt, LevelOrder{lists.by_level, lists.level_start}, [&](int t) {
    if (!lists.has_local[t]) return;
    const KdNode& node = tt.nodes[t];
    double* L = locals + t * size;
    const auto start = Clock::now();
    for (std::size_t k = 0; k < size; ++k) L[k] = 0;
    if (node.parent >= 0 && lists.has_local[node.parent]) {
      const double* cp = tt.nodes[node.parent].center;
      multipole::l2l(Q, node.center[0] - cp[0], node.center[1] - cp[1], node.center[2] - cp[2],
                     locals + node.parent * size, L);
    }
    const auto shifted = Clock::now();
    for (int k = lists.m2l_offsets[t]; k < lists.m2l_offsets[t + 1]; ++k) {
      const int s = lists.m2l_nodes[k];
      const double* cs = plan.source_tree.nodes[s].center;
      multipole::m2l(p, Q, node.center[0] - cs[0], node.center[1] - cs[1], node.center[2] - cs[2],
                     plan.multipoles.data() + s * stride, L);
    }
    const auto translated = Clock::now();
    if (node.is_leaf()) l2p_leaf<Q>(plan, t, L, gradient, scratch, out);
    const double dt[3] = {std::chrono::duration<double>(translated - shifted).count(),
                          std::chrono::duration<double>(shifted - start).count(),
                          std::chrono::duration<double>(Clock::now() - translated).count()};
    if (!omp_in_parallel()) {
      for (int k = 0; k < 3; ++k) serial[k] += dt[k];
      return;
    }
    for (int k = 0; k < 3; ++k) {
#pragma omp atomic
      parallel[k] += dt[k];
    }
  });
  const int threads = omp_get_max_threads();
  times = {serial[0] + parallel[0] / threads, serial[1] + parallel[1] / threads,
           serial[2] + parallel[2] / threads};
}

}  // namespace

template <class T>
void local_field_cpu(const TreePlan& plan, const LocalExpansionLists& lists, double* locals,
                     bool gradient, FarScratch<T>& scratch, ComponentArrays out,
                     LocalTimes& times) {
  size_far_scratch(plan, scratch);
  dispatch_order(plan.order, "local expansions", [&](auto P) {
    local_walk<local_order(decltype(P)::value)>(plan, lists, locals, gradient, scratch, out, times);
  });
}

template void local_field_cpu(const TreePlan&, const LocalExpansionLists&, double*, bool,
                              FarScratch<double>&, ComponentArrays, LocalTimes&);
template void local_field_cpu(const TreePlan&, const LocalExpansionLists&, double*, bool,
                              FarScratch<float>&, ComponentArrays, LocalTimes&);

}  // namespace vortex::detail
