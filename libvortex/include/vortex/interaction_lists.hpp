#pragma once
// Box-wise interaction lists: for each target leaf, the source nodes evaluated by their multipole
// expansions (far) and the source leaves summed particle by particle (near). Flat CSR arrays, ready
// to copy to a GPU.

#include <vector>

#include "vortex/kdtree.hpp"

namespace vortex {

struct AcceptanceCriteria {
  double theta = 0.6;  // far only if source radius <= theta * distance(source center, target box)
  double kappa = 2.5;  // far only if gap between the boxes >= kappa * max sigma of the source box
};

// True when the source node may be approximated by its multipoles for every target in the box: it
// is strictly separated from the box (no source at a target) and both criteria hold.
bool is_far(const KdNode& target, const KdNode& source, const AcceptanceCriteria& criteria);

struct InteractionLists {
  // Entries for target leaf i (the i-th of KdTree::leaves) are [offsets[i], offsets[i+1]).
  std::vector<int> near_offsets, near_nodes;  // source leaf node indices
  std::vector<int> far_offsets, far_nodes;    // source node indices (any level)

  std::size_t num_target_leaves() const {
    return near_offsets.empty() ? 0 : near_offsets.size() - 1;
  }
};

InteractionLists build_interaction_lists(const KdTree& targets, const KdTree& sources,
                                         const AcceptanceCriteria& criteria);

}  // namespace vortex
