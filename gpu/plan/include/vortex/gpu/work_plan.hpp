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
  // The balance of the items: the largest near item's pairs and far item's target-node pairs
  // (against the means, pair_interactions / near items and multipole_interactions / far items).
  std::uint64_t near_item_max = 0, far_item_max = 0;

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

// The most sources (near) or far nodes (far) one item takes: the work spread over the items the
// device wants, and no near item smaller than min_tiles tiles. The host's planner and the
// device's share this arithmetic and leaf_pieces, so that both cut every list alike.
struct PieceLimits {
  long long near = 0, far = 0;
};

VORTEX_HD long long ceil_div(long long a, long long b) {
  return (a + b - 1) / b;
}

VORTEX_HD PieceLimits piece_limits(long long total_near, long long total_far,
                                   const Balance& balance) {
  auto wanted = [&](std::size_t resident) {
    const long long w = static_cast<long long>(resident) * balance.items_per_resident;
    return w > 1 ? w : 1ll;
  };
  const long long least_near = static_cast<long long>(balance.min_tiles) * balance.block_threads;
  const long long near = ceil_div(total_near, wanted(balance.resident_blocks));
  const long long far = ceil_div(total_far, wanted(balance.far_resident_blocks));
  return {near > least_near ? near : least_near, far > 16 ? far : 16};
}

// How one target leaf's lists are cut: near and far pieces per group (0: none) and the sources
// (whole tiles) or far nodes of one piece.
struct LeafPieces {
  long long near_pieces = 0, near_piece = 0, far_pieces = 0, far_piece = 0;
};

VORTEX_HD LeafPieces leaf_pieces(long long sources, long long far_entries,
                                 const PieceLimits& limits, const Balance& balance) {
  auto capped = [&](long long v) { return v < balance.max_pieces ? v : balance.max_pieces; };
  LeafPieces p;
  if (sources > 0) p.near_pieces = capped(ceil_div(sources, limits.near));
  if (p.near_pieces > 1)
    p.near_piece =
        ceil_div(ceil_div(sources, p.near_pieces), balance.block_threads) * balance.block_threads;
  if (far_entries > 0) {
    p.far_pieces = capped(ceil_div(far_entries, limits.far));
    p.far_piece = ceil_div(far_entries, p.far_pieces);
  }
  return p;
}

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
