#pragma once
// The work plan of the device-built treecode, made on the device from the device's lists: the
// same groups, items, slots, cut ranges and launch order as the host's plan_tree (work_plan.hpp)
// makes from the same lists, without the lists going to the host.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/layout.hpp"
#include "vortex/gpu/work_plan.hpp"
#include "vortex/math/tree_node.hpp"

namespace vortex::gpu {

// Lists per target leaf on the device (CSR, as ListView).
struct DeviceLists {
  const KdNode* target_nodes = nullptr;
  const int* target_leaves = nullptr;  // leaf node indices
  int num_leaves = 0;
  const int* near_offsets = nullptr;
  const Range* near_entries = nullptr;
  const int* far_offsets = nullptr;
  // Far items index the far list entries themselves (the far node array as it is).
};

// A plan in device memory and its sizes.
struct DevicePlanView {
  int block_threads = 0;
  int num_groups = 0, num_slots = 0, num_near_items = 0, num_far_items = 0, num_near_ranges = 0;
  const TargetGroup* groups = nullptr;
  const int* group_slots = nullptr;  // num_groups + 1
  const WorkItem* near_items = nullptr;
  const WorkItem* far_items = nullptr;
  const Range* near_ranges = nullptr;
};

class DevicePlanner {
 public:
  // Plans on `stream`; waits once for the plan's sizes (to size its buffers and the launches).
  DevicePlanView plan(const DeviceLists& lists, const Balance& balance, cudaStream_t stream);
  // Pair and multipole interaction counts of the last plan, and its largest near item's pairs and
  // far item's target-node pairs (WorkPlan's); valid once `stream` has completed.
  std::uint64_t pair_interactions() const { return counts_host_.data()[0]; }
  std::uint64_t multipole_interactions() const { return counts_host_.data()[1]; }
  std::uint64_t near_item_max() const { return counts_host_.data()[2]; }
  std::uint64_t far_item_max() const { return counts_host_.data()[3]; }

 private:
  DeviceBuffer<long long> leaf_;    // per-leaf columns (planner's own layout)
  DeviceBuffer<int> offsets_;       // per-leaf exclusive offsets, several columns
  DeviceBuffer<long long> totals_;  // work totals, sizes
  DeviceBuffer<unsigned long long> counts_;
  DeviceBuffer<unsigned char> temp_, keys_;
  DeviceBuffer<TargetGroup> groups_;
  DeviceBuffer<int> group_slots_;
  DeviceBuffer<WorkItem> items_, near_items_, far_items_;
  DeviceBuffer<Range> ranges_;
  PinnedBuffer<long long> sizes_host_;
  PinnedBuffer<unsigned long long> counts_host_;
};

}  // namespace vortex::gpu
