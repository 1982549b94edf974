#pragma once
// Box-wise interaction lists: for each target leaf, the source nodes evaluated by their multipole
// expansions (far) and the source leaves summed particle by particle (near). Flat CSR arrays, ready
// to copy to a GPU.

#include <vector>

#include "vortex/kdtree.hpp"
#include "vortex/math/acceptance.hpp"
#include "vortex/math/index_range.hpp"

namespace vortex {

struct InteractionLists {
  // Entries for target leaf i (the i-th of KdTree::leaves) are [offsets[i], offsets[i+1]).
  // Near entries are the particle ranges (source-tree order) of the near source leaves, with
  // leaves that abut in memory merged into one range, so that pair loops run long.
  std::vector<int> near_offsets;
  std::vector<IndexRange> near_ranges;
  std::vector<int> far_offsets, far_nodes;  // source node indices (any level)
  // The multipole order each far entry is evaluated at (far_order in acceptance.hpp).
  std::vector<unsigned char> far_orders;

  // Scratch of the build, kept so that a rebuild allocates nothing: each thread's lists and walk
  // stack, and where each leaf's entries are in them.
  // Aligned to a cache line: each thread grows its own vectors, and their headers must not share
  // a line with another thread's.
  struct alignas(64) ThreadScratch {
    std::vector<IndexRange> near;
    std::vector<int> far, stack;
    std::vector<unsigned char> far_order;
  };
  std::vector<ThreadScratch> threads;
  std::vector<int> leaf_owner, leaf_near_begin, leaf_near_count, leaf_far_begin, leaf_far_count;

  std::size_t num_target_leaves() const {
    return near_offsets.empty() ? 0 : near_offsets.size() - 1;
  }
};

InteractionLists build_interaction_lists(const KdTree& targets, const KdTree& sources,
                                         const AcceptanceCriteria& criteria);
// The same into `lists`, reusing its storage (and the per-leaf scratch it keeps).
void build_interaction_lists(const KdTree& targets, const KdTree& sources,
                             const AcceptanceCriteria& criteria, InteractionLists& lists);

}  // namespace vortex
