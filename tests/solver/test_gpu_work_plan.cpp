// The GPU work planner (host code, no device needed): every target meets every source of its near
// list and every node of its far list exactly once, items respect the size limits, and each group's
// partial slots are contiguous and written by exactly one item each.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "vortex/gpu/work_plan.hpp"

namespace vortex::gpu {
namespace {

struct Lists {
  std::vector<Range> leaves;
  std::vector<int> near_offsets{0}, far_offsets{0}, far_nodes;
  std::vector<Range> near_entries;
  ListView view() const {
    ListView v;
    v.target_leaves = leaves.data();
    v.num_leaves = static_cast<int>(leaves.size());
    v.near_offsets = near_offsets.data();
    v.near_entries = near_entries.data();
    v.far_offsets = far_offsets.data();
    v.far_nodes = far_nodes.data();
    return v;
  }
};

// Leaves of `bucket` targets; source leaves of `source_bucket`; lists of random, uneven length.
Lists random_lists(int targets, int bucket, int sources, int source_bucket, unsigned seed) {
  Lists l;
  std::mt19937 rng(seed);
  for (int b = 0; b < targets; b += bucket) l.leaves.push_back({b, std::min(targets, b + bucket)});
  std::vector<Range> source_leaves;
  for (int b = 0; b < sources; b += source_bucket)
    source_leaves.push_back({b, std::min(sources, b + source_bucket)});
  const int ns = static_cast<int>(source_leaves.size());
  for (std::size_t i = 0; i < l.leaves.size(); ++i) {
    // A few very long lists among short ones.
    const int len = (i % 17 == 3) ? ns : static_cast<int>(rng() % std::min(ns, 12));
    std::vector<int> pick(ns);
    for (int k = 0; k < ns; ++k) pick[k] = k;
    std::shuffle(pick.begin(), pick.end(), rng);
    std::sort(pick.begin(), pick.begin() + len);
    for (int k = 0; k < len; ++k) l.near_entries.push_back(source_leaves[pick[k]]);
    l.near_offsets.push_back(static_cast<int>(l.near_entries.size()));
    const int nf = (i % 13 == 5) ? 400 : static_cast<int>(rng() % 40);
    for (int k = 0; k < nf; ++k) l.far_nodes.push_back(static_cast<int>(rng() % 1000));
    l.far_offsets.push_back(static_cast<int>(l.far_nodes.size()));
  }
  return l;
}

void check_slots(const WorkPlan& plan) {
  std::vector<int> owner(plan.num_slots(), -1);
  auto claim = [&](const WorkItem& it) {
    ASSERT_GE(it.slot, plan.group_slots[it.group]);
    ASSERT_LT(it.slot, plan.group_slots[it.group + 1]);
    ASSERT_EQ(owner[it.slot], -1) << "slot written twice";
    owner[it.slot] = it.group;
  };
  for (const WorkItem& it : plan.near_items) claim(it);
  for (const WorkItem& it : plan.far_items) claim(it);
  for (int s = 0; s < plan.num_slots(); ++s) EXPECT_NE(owner[s], -1) << "slot " << s << " unused";
}

TEST(GpuWorkPlan, TreeCoversEveryPairOnce) {
  const Lists l = random_lists(3000, 64, 20000, 100, 7);
  Balance b;
  b.block_threads = 64;
  b.resident_blocks = 40;
  b.far_resident_blocks = 20;
  const WorkPlan plan = plan_tree(l.view(), b);
  check_slots(plan);

  // Per target leaf: sources covered (as counts per particle) and far nodes (as multisets).
  std::uint64_t pairs = 0, m2p = 0;
  for (std::size_t leaf = 0; leaf < l.leaves.size(); ++leaf) {
    std::map<int, int> want_near, want_far;
    for (int k = l.near_offsets[leaf]; k < l.near_offsets[leaf + 1]; ++k)
      for (int s = l.near_entries[k].begin; s < l.near_entries[k].end; ++s) ++want_near[s];
    for (int k = l.far_offsets[leaf]; k < l.far_offsets[leaf + 1]; ++k) ++want_far[l.far_nodes[k]];
    std::map<int, int> got_near, got_far;
    for (const WorkItem& it : plan.near_items) {
      const TargetGroup g = plan.groups[it.group];
      if (g.begin != l.leaves[leaf].begin) continue;
      EXPECT_EQ(g.count, l.leaves[leaf].size());
      for (int e = it.entry_begin; e < it.entry_end; ++e) {
        ASSERT_GT(plan.near_ranges[e].size(), 0);
        for (int s = plan.near_ranges[e].begin; s < plan.near_ranges[e].end; ++s) ++got_near[s];
      }
    }
    for (const WorkItem& it : plan.far_items) {
      if (plan.groups[it.group].begin != l.leaves[leaf].begin) continue;
      for (int e = it.entry_begin; e < it.entry_end; ++e) ++got_far[l.far_nodes[e]];
    }
    EXPECT_EQ(got_near, want_near) << "leaf " << leaf;
    EXPECT_EQ(got_far, want_far) << "leaf " << leaf;
    for (auto& kv : want_near) pairs += std::uint64_t(kv.second) * l.leaves[leaf].size();
    for (auto& kv : want_far) m2p += std::uint64_t(kv.second) * l.leaves[leaf].size();
  }
  EXPECT_EQ(plan.pair_interactions, pairs);
  EXPECT_EQ(plan.multipole_interactions, m2p);

  // Long lists were split, and the costliest items come first (to a quarter octave).
  EXPECT_GT(plan.near_items.size(), l.leaves.size() / 2);
  auto cost = [&](const WorkItem& it) {
    long c = 0;
    for (int e = it.entry_begin; e < it.entry_end; ++e) c += plan.near_ranges[e].size();
    return c;
  };
  for (std::size_t i = 1; i < plan.near_items.size(); ++i)
    EXPECT_GE(1.19 * cost(plan.near_items[i - 1]), cost(plan.near_items[i]));
  long largest_list = 0;
  for (std::size_t leaf = 0; leaf < l.leaves.size(); ++leaf) {
    long s = 0;
    for (int k = l.near_offsets[leaf]; k < l.near_offsets[leaf + 1]; ++k)
      s += l.near_entries[k].size();
    largest_list = std::max(largest_list, s);
  }
  EXPECT_LT(cost(plan.near_items.front()), largest_list);

  // The balance the plan reports: its largest items' pairs, and an item of the split lists no
  // more than a few times the mean one (the longest list is many times the mean).
  std::uint64_t near_max = 0, far_max = 0;
  for (const WorkItem& it : plan.near_items)
    near_max = std::max(near_max, std::uint64_t(plan.groups[it.group].count) * cost(it));
  for (const WorkItem& it : plan.far_items)
    far_max = std::max(far_max, std::uint64_t(plan.groups[it.group].count) *
                                    std::uint64_t(it.entry_end - it.entry_begin));
  EXPECT_EQ(plan.near_item_max, near_max);
  EXPECT_EQ(plan.far_item_max, far_max);
  EXPECT_GT(near_max, 0u);
  EXPECT_GT(far_max, 0u);
}

TEST(GpuWorkPlan, LeavesLargerThanABlockAreCutIntoGroups) {
  const Lists l = random_lists(1000, 300, 5000, 64, 3);
  Balance b;
  b.block_threads = 128;
  const WorkPlan plan = plan_tree(l.view(), b);
  check_slots(plan);
  std::vector<int> seen(1000, 0);
  for (const TargetGroup& g : plan.groups) {
    EXPECT_LE(g.count, 128);
    EXPECT_GT(g.count, 0);
    for (int t = g.begin; t < g.begin + g.count; ++t) ++seen[t];
  }
  for (int c : seen) EXPECT_EQ(c, 1);
}

TEST(GpuWorkPlan, DirectCoversAllPairsAndFillsTheLastWave) {
  for (int nt : {1, 100, 1000, 100000}) {
    for (int ns : {1, 700, 250000}) {
      Balance b;
      b.block_threads = 128;
      b.resident_blocks = 132 * 4;
      const WorkPlan plan = plan_direct(nt, ns, b);
      check_slots(plan);
      EXPECT_EQ(plan.pair_interactions, std::uint64_t(nt) * ns);
      std::vector<long> per_group(plan.groups.size(), 0);
      for (const WorkItem& it : plan.near_items)
        for (int e = it.entry_begin; e < it.entry_end; ++e)
          per_group[it.group] += plan.near_ranges[e].size();
      for (long c : per_group) EXPECT_EQ(c, ns);
      std::uint64_t largest = 0;
      for (const WorkItem& it : plan.near_items) {
        std::uint64_t sources = 0;
        for (int e = it.entry_begin; e < it.entry_end; ++e) sources += plan.near_ranges[e].size();
        largest = std::max(largest, std::uint64_t(plan.groups[it.group].count) * sources);
      }
      EXPECT_EQ(plan.near_item_max, largest);
      int covered = 0;
      for (const TargetGroup& g : plan.groups) covered += g.count;
      EXPECT_EQ(covered, nt);
    }
  }
  Balance b;
  b.block_threads = 128;
  b.resident_blocks = 1056;
  const WorkPlan plan = plan_direct(1000000, 1000000, b);
  const double waves = double(plan.near_items.size()) / b.resident_blocks;
  EXPECT_GE(waves / std::ceil(waves), 0.95);
}

}  // namespace
}  // namespace vortex::gpu

namespace vortex::gpu {
namespace {

// The launch-order bucket is floor(4 log2 cost) counted down from 255, exact at powers of two
// (where a floating log2 may land on either side) and equal to the floating value elsewhere.
TEST(CostBucket, QuarterOctavesCostliestFirst) {
  EXPECT_EQ(cost_bucket(0), 255);
  EXPECT_EQ(cost_bucket(1), 255);
  for (int k = 1; k < 62; ++k) {
    const int expected = std::max(0, 255 - 4 * k);
    EXPECT_EQ(cost_bucket(1ll << k), expected) << "2^" << k;
    if (k >= 3)  // 2^k - 1 lies in the last quarter octave below 2^k
      EXPECT_EQ(cost_bucket((1ll << k) - 1), std::min(255, expected + 1)) << "2^" << k << " - 1";
  }
  for (long long c = 2; c < 200000; c = c * 13 / 11 + 1) {
    const double q = 4 * std::log2(static_cast<double>(c));
    if (std::abs(q - std::round(q)) < 1e-9) continue;  // a boundary: covered above
    EXPECT_EQ(cost_bucket(c), 255 - std::min(255, static_cast<int>(q))) << c;
  }
}

}  // namespace
}  // namespace vortex::gpu
