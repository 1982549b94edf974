// The far field's local-expansion path on CPU threads (local_expansion_lists.hpp): each target node
// that holds a local expansion gets its parent's by L2L and adds its own M2L list; each such leaf
// then evaluates it at its targets (L2P). One walk over the target tree, parents first, the
// subtrees below a level one per thread (tree/subtree_walks.hpp), so that the three operations
// share one parallel loop; the M2L of the few nodes above that level runs before it, in a loop of
// its own. Local expansions are kept in double (many boxes add into one); L2P runs in the far
// field's arithmetic, as M2P does.

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "backend/cpu_stages.hpp"
#include "far/far_field_leaves.hpp"
#include "tree/subtree_walks.hpp"
#include "vortex/math/order_dispatch.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/l2p.hpp"
#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/m2l_rotation.hpp"

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

// The M2L lists of the top levels' nodes are few and long (a clustered set puts most of its
// translations there), and the walk runs the nodes above its split level on one thread: the M2L of
// the nodes above level kChunkedLevels runs first, over all threads, in chunks of kChunk
// translations, each into a partial expansion of its own; each node then adds its chunks in order.
// The levels and chunks are fixed, so that the sums do not depend on the number of threads.
constexpr int kChunkedLevels = kLocalChunkedLevels;
constexpr int kChunk = kLocalChunk;

// The nodes above level kChunkedLevels: by_level[0 .. upper_end).
int upper_end(const LocalExpansionLists& lists) {
  const int levels = static_cast<int>(lists.level_start.size()) - 1;
  return lists.level_start[std::min(kChunkedLevels, levels)];
}

// Chunks of the M2L lists of the upper nodes, in by_level order.
int upper_chunk_count(const LocalExpansionLists& lists) {
  int chunks = 0;
  for (int i = 0; i < upper_end(lists); ++i) {
    const int t = lists.by_level[i];
    chunks += (lists.m2l_offsets[t + 1] - lists.m2l_offsets[t] + kChunk - 1) / kChunk;
  }
  return chunks;
}

// M2L of translations [first, last) of target node t's list, added to L.
template <int Q>
void m2l_range(const TreePlan& plan, const LocalExpansionLists& lists, int t, int first, int last,
               double* L) {
  const std::size_t stride = 3 * plan.coefficients_per_expansion();
  const double* ct = plan.target_tree.nodes[t].center;
  multipole::m2l_sum(
      plan.order, Q, last - first,
      [&](int i, double* t) {
        const int s = lists.m2l_nodes[first + i];
        const double* cs = plan.source_tree.nodes[s].center;
        for (int d = 0; d < 3; ++d) t[d] = ct[d] - cs[d];
        return plan.multipoles.data() + s * stride;
      },
      L);
}

// The upper nodes' M2L (into their locals) by chunks over the threads; seconds taken.
template <int Q>
double upper_m2l(const TreePlan& plan, const LocalExpansionLists& lists, double* locals,
                 double* partials) {
  const auto start = Clock::now();
  const std::size_t size = multipole::local_size(Q);
  const int upper = upper_end(lists), chunks = upper_chunk_count(lists);
#pragma omp parallel for schedule(dynamic, 1)
  for (int c = 0; c < chunks; ++c) {
    // The chunk's node: a scan over the few upper nodes.
    int i = 0, first = 0;
    for (;; ++i) {
      const int t = lists.by_level[i];
      const int n = (lists.m2l_offsets[t + 1] - lists.m2l_offsets[t] + kChunk - 1) / kChunk;
      if (c < first + n) break;
      first += n;
    }
    const int t = lists.by_level[i];
    const int begin = lists.m2l_offsets[t] + (c - first) * kChunk;
    double* P = partials + c * size;
    for (std::size_t k = 0; k < size; ++k) P[k] = 0;
    m2l_range<Q>(plan, lists, t, begin, std::min(begin + kChunk, lists.m2l_offsets[t + 1]), P);
  }
  int c = 0;
  for (int i = 0; i < upper; ++i) {
    const int t = lists.by_level[i];
    double* L = locals + t * size;
    for (std::size_t k = 0; k < size; ++k) L[k] = 0;
    const int n = (lists.m2l_offsets[t + 1] - lists.m2l_offsets[t] + kChunk - 1) / kChunk;
    for (int end = c + n; c < end; ++c)
      for (std::size_t k = 0; k < size; ++k) L[k] += partials[c * size + k];
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

template <int Q, class T>
void local_walk(const TreePlan& plan, const LocalExpansionLists& lists, std::vector<double>& locals,
                bool gradient, FarScratch<T>& scratch, ComponentArrays out, LocalTimes& times) {
  const std::size_t size = multipole::local_size(Q);
  const KdTree& tt = plan.target_tree;
  const LevelOrder order{lists.by_level, lists.level_start};
  // Room for every target node, so that a later call whose lists use more nodes allocates
  // nothing (only the nodes that hold a local expansion are written), and the upper chunks.
  const std::size_t nodes = tt.nodes.size();
  locals.resize((nodes + upper_chunk_count(lists)) * size);
  double* const L0 = locals.data();
  // Seconds of each operation: on one thread above the split level, summed over the threads below.
  double serial[3] = {upper_m2l<Q>(plan, lists, L0, L0 + nodes * size), 0, 0};
  double parallel[3] = {0, 0, 0};
  top_down(tt, order, [&](int t) {
    if (!lists.has_local[t]) return;
    const KdNode& node = tt.nodes[t];
    double* L = L0 + t * size;
    const bool upper = node.level < kChunkedLevels;  // its M2L is in L already
    const auto start = Clock::now();
    if (!upper)
      for (std::size_t k = 0; k < size; ++k) L[k] = 0;
    if (node.parent >= 0 && lists.has_local[node.parent]) {
      const double* cp = tt.nodes[node.parent].center;
      multipole::l2l(Q, node.center[0] - cp[0], node.center[1] - cp[1], node.center[2] - cp[2],
                     L0 + node.parent * size, L);
    } else if (const int from = lists.inherited_of[t]; from >= 0) {
      // A root's expansion from a parent the tree does not hold (tree_plan.hpp).
      const InheritedLocals& in = plan.inherited_locals;
      const double* cp = in.centers.data() + 3 * from;
      multipole::l2l(Q, node.center[0] - cp[0], node.center[1] - cp[1], node.center[2] - cp[2],
                     in.expansions.data() + from * size, L);
    }
    const auto shifted = Clock::now();
    if (!upper) m2l_range<Q>(plan, lists, t, lists.m2l_offsets[t], lists.m2l_offsets[t + 1], L);
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
void local_field_cpu(const TreePlan& plan, const LocalExpansionLists& lists,
                     std::vector<double>& locals, bool gradient, FarScratch<T>& scratch,
                     ComponentArrays out, LocalTimes& times) {
  size_far_scratch(plan, scratch);
  dispatch_order(plan.order, "local expansions", [&](auto P) {
    local_walk<local_order(decltype(P)::value)>(plan, lists, locals, gradient, scratch, out, times);
  });
}

template void local_field_cpu(const TreePlan&, const LocalExpansionLists&, std::vector<double>&,
                              bool, FarScratch<double>&, ComponentArrays, LocalTimes&);
template void local_field_cpu(const TreePlan&, const LocalExpansionLists&, std::vector<double>&,
                              bool, FarScratch<float>&, ComponentArrays, LocalTimes&);

}  // namespace vortex::detail
