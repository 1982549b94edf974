#include "vortex/interaction_lists.hpp"

#include <algorithm>
#include <cmath>

#include <omp.h>

namespace vortex {

namespace {

// Appends a near source leaf to a list, merged with the previous range when they abut.
void append_near(std::vector<IndexRange>& list, std::size_t first, const KdNode& leaf) {
  if (list.size() > first && list.back().end == leaf.begin)
    list.back().end = leaf.end;
  else
    list.push_back({leaf.begin, leaf.end});
}

// Room for the next build: a thread's lists sum over many leaves, so from one build to the next
// (particles that moved a little) they change little, and with this headroom fit.
template <class T>
void reserve_headroom(std::vector<T>& v) {
  if (v.capacity() < v.size() + v.size() / 4 + 64) v.reserve(v.size() + v.size() / 2 + 64);
}

// The deepest a depth-first walk's stack gets: (arity - 1) entries per level, plus one.
std::size_t walk_depth_bound(const KdTree& tree) {
  int depth = 0;
  for (const KdNode& n : tree.nodes) depth = std::max(depth, n.level);
  return static_cast<std::size_t>(std::max(tree.arity, 2)) * (depth + 1) + 1;
}

// Walks the source tree for one target leaf, appending to the thread's buffers.
void walk(const KdNode& target, const KdTree& sources, const AcceptanceCriteria& criteria,
          InteractionLists::ThreadScratch& w) {
  const std::size_t first_near = w.near.size();
  w.stack.assign(1, 0);
  while (!w.stack.empty()) {
    const int s = w.stack.back();
    w.stack.pop_back();
    const KdNode& source = sources.nodes[s];
    if (const int order = far_order(target, source, criteria)) {
      w.far.push_back(s);
      w.far_order.push_back(static_cast<unsigned char>(order));
    } else if (source.is_leaf()) {
      append_near(w.near, first_near, source);
    } else {
      // Push in reverse so children are visited in tree order.
      for (int c = source.num_children - 1; c >= 0; --c) w.stack.push_back(source.first_child + c);
    }
  }
}

// Leaf i's entries are at [begin[i], begin[i] + count[i]) of thread owner[i]'s buffer: lays them
// out leaf after leaf.
template <class T, class Buffer>
void flatten(const std::vector<InteractionLists::ThreadScratch>& threads, Buffer buffer,
             const std::vector<int>& owner, const std::vector<int>& begin,
             const std::vector<int>& count, std::vector<int>& offsets, std::vector<T>& entries) {
  const int num_leaves = static_cast<int>(owner.size());
  offsets.resize(num_leaves + 1);
  offsets[0] = 0;
  for (int i = 0; i < num_leaves; ++i) offsets[i + 1] = offsets[i] + count[i];
  const std::size_t total = offsets[num_leaves];
  if (entries.capacity() < total) entries.reserve(total + total / 2 + 64);  // as reserve_headroom
  entries.resize(total);
#pragma omp parallel for schedule(static)
  for (int i = 0; i < num_leaves; ++i) {
    const auto& from = threads[owner[i]].*buffer;
    std::copy(from.begin() + begin[i], from.begin() + begin[i] + count[i],
              entries.begin() + offsets[i]);
  }
}

}  // namespace

void build_interaction_lists(const KdTree& targets, const KdTree& sources,
                             const AcceptanceCriteria& criteria, InteractionLists& lists) {
  const int num_leaves = static_cast<int>(targets.leaves.size());
  auto& threads = lists.threads;
  if (static_cast<int>(threads.size()) < omp_get_max_threads())
    threads.resize(omp_get_max_threads());
  std::vector<int>& owner = lists.leaf_owner;
  std::vector<int>& near_begin = lists.leaf_near_begin;
  std::vector<int>& near_count = lists.leaf_near_count;
  std::vector<int>& far_begin = lists.leaf_far_begin;
  std::vector<int>& far_count = lists.leaf_far_count;
  for (auto* v : {&owner, &near_begin, &near_count, &far_begin, &far_count}) v->resize(num_leaves);
#pragma omp parallel
  {
    const int t = omp_get_thread_num();
    InteractionLists::ThreadScratch& w = threads[t];
    w.near.clear();
    w.far.clear();
    w.far_order.clear();
    w.stack.reserve(walk_depth_bound(sources));
    // Round-robin chunks: every thread gets leaves from all over the tree, so its total changes
    // little between builds.
#pragma omp for schedule(static, 16)
    for (int i = 0; i < num_leaves; ++i) {
      owner[i] = t;
      near_begin[i] = static_cast<int>(w.near.size());
      far_begin[i] = static_cast<int>(w.far.size());
      if (!sources.nodes.empty()) walk(targets.nodes[targets.leaves[i]], sources, criteria, w);
      near_count[i] = static_cast<int>(w.near.size()) - near_begin[i];
      far_count[i] = static_cast<int>(w.far.size()) - far_begin[i];
    }
    reserve_headroom(w.near);
    reserve_headroom(w.far);
    reserve_headroom(w.far_order);
  }
  flatten(threads, &InteractionLists::ThreadScratch::near, owner, near_begin, near_count,
          lists.near_offsets, lists.near_ranges);
  flatten(threads, &InteractionLists::ThreadScratch::far, owner, far_begin, far_count,
          lists.far_offsets, lists.far_nodes);
  flatten(threads, &InteractionLists::ThreadScratch::far_order, owner, far_begin, far_count,
          lists.far_offsets, lists.far_orders);
}

InteractionLists build_interaction_lists(const KdTree& targets, const KdTree& sources,
                                         const AcceptanceCriteria& criteria) {
  InteractionLists lists;
  build_interaction_lists(targets, sources, criteria, lists);
  return lists;
}

}  // namespace vortex
