#include "vortex/local_expansion_lists.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

#include "tree/subtree_walks.hpp"

namespace vortex {

namespace {

// Resizes v to n, with room for the next build (the sizes change little between builds).
template <class T>
void resize_kept(std::vector<T>& v, std::size_t n) {
  if (v.capacity() < n) v.reserve(n + n / 2 + 64);
  v.resize(n);
}

// The nodes sorted by level, into by_level with level_start[l] the first of level l.
void sort_by_level(const KdTree& tree, LocalExpansionLists& out) {
  int depth = 0;
  for (const KdNode& n : tree.nodes) depth = std::max(depth, n.level);
  resize_kept(out.level_start, depth + 2);
  std::fill(out.level_start.begin(), out.level_start.end(), 0);
  for (const KdNode& n : tree.nodes) ++out.level_start[n.level + 1];
  for (int l = 0; l <= depth; ++l) out.level_start[l + 1] += out.level_start[l];
  resize_kept(out.by_level, tree.nodes.size());
  std::vector<int>& next = out.level_fill;
  resize_kept(next, depth + 1);
  std::copy(out.level_start.begin(), out.level_start.end() - 1, next.begin());
  for (int k = 0; k < static_cast<int>(tree.nodes.size()); ++k)
    out.by_level[next[tree.nodes[k].level]++] = k;
}

// A list of source nodes.
struct Span {
  const int* data = nullptr;
  int size = 0;
  const int* begin() const { return data; }
  const int* end() const { return data + size; }
};

// The far entries common to all leaves under node t: a leaf's far list, or its slot.
Span common_of(const KdTree& targets, const InteractionLists& lists, const LocalExpansionLists& out,
               int t) {
  if (targets.nodes[t].is_leaf()) {
    const int leaf = out.leaf_of[t];
    return {lists.far_nodes.data() + lists.far_offsets[leaf],
            lists.far_offsets[leaf + 1] - lists.far_offsets[leaf]};
  }
  return {out.common.data() + out.slot_offsets[t], out.common_count[t]};
}

// The entries taken by M2L at node t or above (held by the slot of the lowest node that took).
Span taken_of(const LocalExpansionLists& out, int t) {
  const int owner = t >= 0 ? out.taken_owner[t] : -1;
  if (owner < 0) return {};
  return {out.taken.data() + out.slot_offsets[owner], out.taken_count[owner]};
}

// The calling thread's marks, one per source node, all 0 between uses.
unsigned char* thread_marks(LocalExpansionLists& out, std::size_t num_sources) {
  return out.marks.data() + omp_get_thread_num() * num_sources;
}

// The far entries common to all leaves under each inner node, bottom-up (an entry is common when
// all the children have it; each child has it at most once); room[T] bounds their number.
void find_common_entries(const KdTree& targets, const KdTree& sources,
                         const InteractionLists& lists, LocalExpansionLists& out) {
  bottom_up(targets, LevelOrder{out.by_level, out.level_start}, [&](int t) {
    const KdNode& node = targets.nodes[t];
    if (node.is_leaf()) return;
    unsigned char* seen = thread_marks(out, sources.nodes.size());
    const int first = node.first_child, last = first + node.num_children;
    for (int c = first; c < last; ++c)
      for (int s : common_of(targets, lists, out, c)) ++seen[s];
    int* common = out.common.data() + out.slot_offsets[t];
    int n = 0;
    for (int s : common_of(targets, lists, out, first))
      if (seen[s] == node.num_children) common[n++] = s;
    for (int c = first; c < last; ++c)
      for (int s : common_of(targets, lists, out, c)) seen[s] = 0;
    out.common_count[t] = n;
  });
}

// Top-down: each node's M2L list (its common entries not taken above that m2l_accepts allows, if
// it takes them) and the entries taken at it or above.
void choose_m2l(const KdTree& targets, const KdTree& sources, const InteractionLists& lists,
                double theta, FarField mode, const FarFieldCosts& costs, LocalExpansionLists& out,
                const InheritedLocals* inherited) {
  top_down(targets, LevelOrder{out.by_level, out.level_start}, [&](int t) {
    const KdNode& node = targets.nodes[t];
    const int parent = node.parent;
    const int from = out.inherited_of[t];
    bool local_above = parent >= 0 && out.has_local[parent];
    Span above = taken_of(out, parent);
    if (from >= 0) {
      local_above = true;
      above = {inherited->taken.data() + inherited->taken_offsets[from],
               inherited->taken_offsets[from + 1] - inherited->taken_offsets[from]};
    }
    const std::size_t slot = out.slot_offsets[t];
    int* m2l = out.m2l.data() + slot;
    int k = 0;
    if (local_may_pay(mode, costs, node.count())) {
      unsigned char* taken = thread_marks(out, sources.nodes.size());
      for (int s : above) taken[s] = 1;
      for (int s : common_of(targets, lists, out, t))
        if (!taken[s] && m2l_accepts(node, sources.nodes[s], theta)) m2l[k++] = s;
      for (int s : above) taken[s] = 0;
      if (!local_pays(mode, costs, k, node.count(), out.subtree[t], local_above)) k = 0;
    }
    out.m2l_count_of[t] = k;
    out.has_local[t] = local_above || k > 0;
    // An inheriting root holds what was taken above it in its own slot, for its subtree.
    if (k == 0 && from < 0) {
      out.taken_owner[t] = parent >= 0 ? out.taken_owner[parent] : -1;
      return;
    }
    int* taken = out.taken.data() + slot;
    std::copy(above.begin(), above.end(), taken);
    std::copy(m2l, m2l + k, taken + above.size);
    out.taken_count[t] = above.size + k;
    out.taken_owner[t] = t;
  });
}

// CSR offsets of `count` per entry; their total.
std::size_t prefix_sum(const int* count, int n, std::vector<int>& offsets) {
  resize_kept(offsets, n + 1);
  offsets[0] = 0;
  for (int i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + count[i];
  return offsets[n];
}

// Each leaf's M2P list: its far entries, in their order, less those taken at it or above; written
// first into the leaf's (unused) common slot.
void leave_to_m2p(const KdTree& targets, const KdTree& sources, const InteractionLists& lists,
                  LocalExpansionLists& out) {
  const int num_leaves = static_cast<int>(targets.leaves.size());
  resize_kept(out.m2p_count, num_leaves);
#pragma omp parallel for schedule(static)
  for (int leaf = 0; leaf < num_leaves; ++leaf) {
    const int t = targets.leaves[leaf];
    const Span taken = taken_of(out, t);
    unsigned char* marked = thread_marks(out, sources.nodes.size());
    for (int s : taken) marked[s] = 1;
    int* kept = out.common.data() + out.slot_offsets[t];
    int n = 0;
    for (int k = lists.far_offsets[leaf]; k < lists.far_offsets[leaf + 1]; ++k)
      if (!marked[lists.far_nodes[k]]) kept[n++] = k;  // the entry, for its node and order
    for (int s : taken) marked[s] = 0;
    out.m2p_count[leaf] = n;
  }
  resize_kept(out.m2p_nodes, prefix_sum(out.m2p_count.data(), num_leaves, out.m2p_offsets));
  resize_kept(out.m2p_orders, out.m2p_nodes.size());
#pragma omp parallel for schedule(static)
  for (int leaf = 0; leaf < num_leaves; ++leaf) {
    const int* kept = out.common.data() + out.slot_offsets[targets.leaves[leaf]];
    for (int i = 0; i < out.m2p_count[leaf]; ++i) {
      out.m2p_nodes[out.m2p_offsets[leaf] + i] = lists.far_nodes[kept[i]];
      out.m2p_orders[out.m2p_offsets[leaf] + i] = lists.far_orders[kept[i]];
    }
  }
}

// On one thread: the M2L lists are short (a parallel loop's wait would cost more).
void flatten_m2l(int num_nodes, LocalExpansionLists& out) {
  resize_kept(out.m2l_nodes, prefix_sum(out.m2l_count_of.data(), num_nodes, out.m2l_offsets));
  for (int t = 0; t < num_nodes; ++t) {
    const int* m2l = out.m2l.data() + out.slot_offsets[t];
    std::copy(m2l, m2l + out.m2l_count_of[t], out.m2l_nodes.data() + out.m2l_offsets[t]);
  }
}

void count_operations(const KdTree& targets, LocalExpansionLists& out) {
  out.m2l_count = out.m2l_nodes.size();
  out.l2l_count = out.l2p_targets = out.m2p_pairs = 0;
  for (std::size_t t = 0; t < targets.nodes.size(); ++t) {
    const KdNode& n = targets.nodes[t];
    if ((n.parent >= 0 && out.has_local[n.parent]) || out.inherited_of[t] >= 0) ++out.l2l_count;
  }
  for (std::size_t leaf = 0; leaf < targets.leaves.size(); ++leaf) {
    const KdNode& n = targets.nodes[targets.leaves[leaf]];
    if (out.has_local[targets.leaves[leaf]]) out.l2p_targets += n.count();
    out.m2p_pairs += std::size_t(n.count()) * out.m2p_count[leaf];
  }
}

}  // namespace

void build_local_expansion_lists(const KdTree& targets, const KdTree& sources,
                                 const InteractionLists& lists, double theta, FarField mode,
                                 const FarFieldCosts& costs, LocalExpansionLists& out,
                                 const InheritedLocals* inherited) {
  const int num_nodes = static_cast<int>(targets.nodes.size());
  out.inherited_of.assign(num_nodes, -1);
  out.inherits = inherited && inherited->size() > 0;
  for (std::size_t k = 0; inherited && k < inherited->size(); ++k)
    out.inherited_of[inherited->roots[k]] = static_cast<int>(k);
  for (auto* v : {&out.room, &out.common_count, &out.taken_count, &out.taken_owner,
                  &out.m2l_count_of, &out.subtree, &out.leaf_of})
    resize_kept(*v, num_nodes);
  resize_kept(out.marks, sources.nodes.size() * omp_get_max_threads());
  std::fill(out.marks.begin(), out.marks.end(), 0);
  resize_kept(out.has_local, num_nodes);
  resize_kept(out.slot_offsets, num_nodes + 1);
  std::fill(out.leaf_of.begin(), out.leaf_of.end(), -1);
  for (std::size_t i = 0; i < targets.leaves.size(); ++i) out.leaf_of[targets.leaves[i]] = int(i);
  if (num_nodes == 0) {
    out.m2l_offsets.assign(1, 0);
    out.m2p_offsets.assign(1, 0);
    out.m2l_nodes.clear();
    out.m2p_nodes.clear();
    out.m2p_orders.clear();
    out.m2l_count = out.l2l_count = out.l2p_targets = out.m2p_pairs = 0;
    return;
  }
  sort_by_level(targets, out);
  // Room for each node's common entries, and the size of its subtree, bottom-up.
  for (int i = num_nodes - 1; i >= 0; --i) {
    const int t = out.by_level[i];
    const KdNode& node = targets.nodes[t];
    if (node.is_leaf()) {
      const int leaf = out.leaf_of[t];
      out.room[t] = lists.far_offsets[leaf + 1] - lists.far_offsets[leaf];
      out.subtree[t] = 1;
      continue;
    }
    int room = out.room[node.first_child], subtree = 1;
    for (int c = node.first_child; c < node.first_child + node.num_children; ++c) {
      room = std::min(room, out.room[c]);
      subtree += out.subtree[c];
    }
    out.room[t] = room;
    out.subtree[t] = subtree;
  }
  out.slot_offsets[0] = 0;
  for (int t = 0; t < num_nodes; ++t) out.slot_offsets[t + 1] = out.slot_offsets[t] + out.room[t];
  const std::size_t total = out.slot_offsets[num_nodes];
  for (auto* v : {&out.common, &out.taken, &out.m2l}) resize_kept(*v, total);

  find_common_entries(targets, sources, lists, out);
  choose_m2l(targets, sources, lists, theta, mode, costs, out, inherited);
  flatten_m2l(num_nodes, out);
  leave_to_m2p(targets, sources, lists, out);
  count_operations(targets, out);
}

}  // namespace vortex
