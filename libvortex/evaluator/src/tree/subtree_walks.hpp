#pragma once
// Walks over every node of a tree, parents before children or children before parents, with one
// parallel loop: the nodes above a split level one at a time, the subtrees below it one per thread
// at a time. On a machine shared with other jobs every parallel loop costs a wait at its end; a
// loop per level made the local expansions' stages ten times slower on two threads than on one.

#include <omp.h>

#include <vector>

#include "vortex/kdtree.hpp"

namespace vortex {

// The tree's nodes sorted by level: level l is by_level[level_start[l] .. level_start[l + 1]).
struct LevelOrder {
  const std::vector<int>& by_level;
  const std::vector<int>& level_start;

  int depth() const { return static_cast<int>(level_start.size()) - 2; }
  // The first level with 8 nodes a thread, or the deepest.
  int split() const {
    const int want = 8 * omp_get_max_threads();
    for (int level = 0; level < depth(); ++level)
      if (level_start[level + 1] - level_start[level] >= want) return level;
    return depth();
  }
};

// fn(node) for every node, children before their parent.
template <class Fn>
void bottom_up(const KdTree& tree, const LevelOrder& order, Fn&& fn) {
  const int split = order.split();
  auto walk = [&](auto&& self, int t) -> void {
    const KdNode& n = tree.nodes[t];
    for (int c = n.first_child; c < n.first_child + n.num_children; ++c) self(self, c);
    fn(t);
  };
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = order.level_start[split]; i < order.level_start[split + 1]; ++i)
    walk(walk, order.by_level[i]);
  for (int i = order.level_start[split] - 1; i >= 0; --i) fn(order.by_level[i]);
}

// fn(node) for every node, parents before their children.
template <class Fn>
void top_down(const KdTree& tree, const LevelOrder& order, Fn&& fn) {
  const int split = order.split();
  for (int i = 0; i < order.level_start[split]; ++i) fn(order.by_level[i]);
  auto walk = [&](auto&& self, int t) -> void {
    fn(t);
    const KdNode& n = tree.nodes[t];
    for (int c = n.first_child; c < n.first_child + n.num_children; ++c) self(self, c);
  };
#pragma omp parallel for schedule(dynamic, 1)
  for (int i = order.level_start[split]; i < order.level_start[split + 1]; ++i)
    walk(walk, order.by_level[i]);
}

}  // namespace vortex
