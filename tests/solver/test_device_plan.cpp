// The device's staging ring and work plan: the ring moves arrays byte for byte both ways, and the
// plan the device builds from its lists is the host's plan of the same lists, entry for entry.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "support/device_copies.hpp"
#include "support/reference.hpp"
#include "tree/tree_plan.hpp"
#include "vortex/generators.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device_plan.hpp"
#include "vortex/gpu/staging_ring.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/work_plan.hpp"
#include "vortex/interaction_lists.hpp"
#include "vortex/kdtree.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

// The staging ring moves arrays of several slots and a ragged tail byte for byte, both ways, and
// leaves the source free to change once upload returns.
TEST(StagingRing, MovesArraysOfManySlotsExactly) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const std::size_t slot = gpu::StagingRing::kSlotBytes;
  for (std::size_t bytes :
       {std::size_t(1), slot - 3, 3 * slot, (2 * gpu::StagingRing::kSlots + 1) * slot + 12345}) {
    std::vector<unsigned char> host(bytes), back(bytes + 1, 0xAB);
    for (std::size_t i = 0; i < bytes; ++i)
      host[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
    const std::vector<unsigned char> expected = host;
    gpu::DeviceBuffer<unsigned char> device(bytes);
    gpu::Stream stream;
    gpu::StagingRing ring;
    ring.upload(device.data(), host.data(), bytes, stream.get());
    std::fill(host.begin(), host.end(), 0);  // upload has returned: the source may change
    ring.download(back.data() + 1, device.data(), bytes, stream.get());
    EXPECT_EQ(back[0], 0xAB) << bytes;
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), back.begin() + 1)) << bytes;
  }
}

using testing::download;
using testing::upload;

bool same_items(const std::vector<gpu::WorkItem>& a, const std::vector<gpu::WorkItem>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].group != b[k].group || a[k].entry_begin != b[k].entry_begin ||
        a[k].entry_end != b[k].entry_end || a[k].slot != b[k].slot)
      return false;
  return true;
}

// The device's work plan is the host's plan_tree of the same lists, entry for entry: groups,
// slots, cut ranges and the launch order, with lists kept whole and with lists cut into pieces.
TEST(DevicePlan, EqualsTheHostPlan) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (const bool clustered : {false, true}) {
    const ParticleSet p = clustered ? plummer_sphere(40000, 9) : random_cube(40000, 9);
    const KdTree sources = build_kdtree(PointsView(p), p.sigma.data(), 256, 8);
    const KdTree targets = build_kdtree(PointsView(p), nullptr, 64, 8);
    const InteractionLists lists =
        build_interaction_lists(targets, sources, AcceptanceCriteria{0.5, 2.4});
    std::vector<IndexRange> leaf_ranges;
    for (int leaf : targets.leaves)
      leaf_ranges.push_back({targets.nodes[leaf].begin, targets.nodes[leaf].end});
    gpu::ListView host_view;
    host_view.target_leaves = leaf_ranges.data();
    host_view.num_leaves = static_cast<int>(leaf_ranges.size());
    host_view.near_offsets = lists.near_offsets.data();
    host_view.near_entries = lists.near_ranges.data();
    host_view.far_offsets = lists.far_offsets.data();
    host_view.far_nodes = lists.far_nodes.data();
    const auto nodes = upload(targets.nodes);
    const auto leaves = upload(targets.leaves);
    const auto near_offsets = upload(lists.near_offsets);
    const auto near_entries = upload(lists.near_ranges);
    const auto far_offsets = upload(lists.far_offsets);
    gpu::DeviceLists device_view;
    device_view.target_nodes = nodes.data();
    device_view.target_leaves = leaves.data();
    device_view.num_leaves = host_view.num_leaves;
    device_view.near_offsets = near_offsets.data();
    device_view.near_entries = near_entries.data();
    device_view.far_offsets = far_offsets.data();
    gpu::DevicePlanner planner;
    for (const std::size_t resident : {std::size_t(1), std::size_t(528), std::size_t(20000)}) {
      gpu::Balance balance;
      balance.block_threads = 64;
      balance.resident_blocks = resident;
      balance.far_resident_blocks = resident * 3;
      const gpu::WorkPlan host = gpu::plan_tree(host_view, balance);
      const gpu::DevicePlanView device = planner.plan(device_view, balance, nullptr);
      VORTEX_CUDA_CHECK(cudaDeviceSynchronize());
      const std::string what =
          (clustered ? "plummer" : "cube") + std::string(", resident ") + std::to_string(resident);
      ASSERT_EQ(device.num_groups, static_cast<int>(host.groups.size())) << what;
      ASSERT_EQ(device.num_slots, host.num_slots()) << what;
      const auto groups = download(device.groups, device.num_groups);
      for (std::size_t g = 0; g < groups.size(); ++g) {
        ASSERT_EQ(groups[g].begin, host.groups[g].begin) << what;
        ASSERT_EQ(groups[g].count, host.groups[g].count) << what;
      }
      EXPECT_EQ(download(device.group_slots, device.num_groups + 1), host.group_slots) << what;
      EXPECT_TRUE(same_items(download(device.near_items, device.num_near_items), host.near_items))
          << what;
      EXPECT_TRUE(same_items(download(device.far_items, device.num_far_items), host.far_items))
          << what;
      const auto ranges = download(device.near_ranges, device.num_near_ranges);
      ASSERT_EQ(ranges.size(), host.near_ranges.size()) << what;
      for (std::size_t k = 0; k < ranges.size(); ++k) {
        ASSERT_EQ(ranges[k].begin, host.near_ranges[k].begin) << what << " range " << k;
        ASSERT_EQ(ranges[k].end, host.near_ranges[k].end) << what << " range " << k;
      }
      EXPECT_EQ(planner.pair_interactions(), host.pair_interactions) << what;
      EXPECT_EQ(planner.multipole_interactions(), host.multipole_interactions) << what;
      EXPECT_EQ(planner.near_item_max(), host.near_item_max) << what;
      EXPECT_EQ(planner.far_item_max(), host.far_item_max) << what;
      // Cut lists were exercised at the largest resident count.
      if (resident == 20000) EXPECT_GT(host.near_ranges.size(), lists.near_ranges.size()) << what;
    }
  }
}

}  // namespace
}  // namespace vortex
