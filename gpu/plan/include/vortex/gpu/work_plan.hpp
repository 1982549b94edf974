#pragma once
// Host-side planning of the GPU sums: which block sums what, and where it writes.
//
// Targets are cut into groups of at most `block_threads` (one block, one thread per target). A
// group's source list is cut into work items of bounded cost, so that a few long lists do not
// leave the GPU idle at the end of a launch, and items are launched longest first. Every item
// writes its own partial slot; a combine pass adds the slots of a group in a fixed order, so the
// result does not depend on the order in which blocks run.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vortex/gpu/layout.hpp"

namespace vortex::gpu {

struct WorkPlan {
  int block_threads = 0;
  std::vector<TargetGroup> groups;
  std::vector<int> group_slots;              // slots of group g: [group_slots[g], group_slots[g+1])
  std::vector<WorkItem> near_items;          // launch order
  std::vector<Range> near_ranges;            // source ranges of the near items, item by item
  std::vector<WorkItem> far_items;           // launch order
  std::vector<int> far_nodes;                // source nodes of the far items, item by item
  std::uint64_t pair_interactions = 0;       // target-source pairs
  std::uint64_t multipole_interactions = 0;  // target-node pairs

  int num_slots() const { return group_slots.empty() ? 0 : group_slots.back(); }
};

struct Balance {
  int block_threads = 64;               // targets per group and sources per tile
  std::size_t resident_blocks = 1;      // pair-sum blocks that run at once on the device
  std::size_t far_resident_blocks = 1;  // the same for the multipole sums
  int items_per_resident = 4;           // aim for this many items per resident block
  int min_tiles = 4;    // no item smaller than this many full tiles (when splitting)
  int max_pieces = 64;  // at most this many items per group and list
};

// Lists per target leaf (CSR): near entries are source particle ranges, far entries source nodes.
// Far items index far_nodes itself, so that array goes to the device as it is.
struct ListView {
  const Range* target_leaves = nullptr;  // per leaf, target particle range
  int num_leaves = 0;
  const int* near_offsets = nullptr;  // size num_leaves + 1
  const Range* near_entries = nullptr;
  const int* far_offsets = nullptr;  // size num_leaves + 1; null for no far field
  const int* far_nodes = nullptr;
};

WorkPlan plan_tree(const ListView& lists, const Balance& balance);

// All sources onto all targets: groups of block_threads targets; the source range is split into
// as many pieces as keep the launch's last wave nearly full.
WorkPlan plan_direct(int num_targets, int num_sources, const Balance& balance);

}  // namespace vortex::gpu
