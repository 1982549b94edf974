#include "vortex/gpu/work_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>

namespace vortex::gpu {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
  return (a + b - 1) / b;
}

// Appends the groups of the targets range r, at most b targets each.
template <class Fn>
void for_each_group(Range r, int b, Fn&& fn) {
  for (int begin = r.begin; begin < r.end; begin += b)
    fn(TargetGroup{begin, std::min(b, r.end - begin)});
}

// Puts items in launch order, costliest first; equal costs keep their order.
void order_by_cost(std::vector<WorkItem>& items, const std::vector<std::int64_t>& cost) {
  std::vector<int> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cost[a] > cost[b]; });
  std::vector<WorkItem> sorted(items.size());
  for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = items[order[i]];
  items.swap(sorted);
}

// Source ranges of one list with abutting ranges merged, so that tiles run full across leaves that
// are neighbours in memory.
void merge_ranges(const Range* entries, int n, std::vector<Range>& merged) {
  merged.clear();
  for (int i = 0; i < n; ++i) {
    const Range r = entries[i];
    if (r.size() <= 0) continue;
    if (!merged.empty() && merged.back().end == r.begin)
      merged.back().end = r.end;
    else
      merged.push_back(r);
  }
}

// Cuts the concatenation of `ranges` (total `total` particles) into pieces of `piece` particles and
// appends one near item per piece.
void cut_near(WorkPlan& plan, std::vector<std::int64_t>& cost, int group,
              const std::vector<Range>& ranges, std::int64_t piece, int& slot) {
  std::int64_t room = piece;
  int first = static_cast<int>(plan.near_ranges.size());
  std::int64_t filled = 0;
  auto close = [&] {
    const int last = static_cast<int>(plan.near_ranges.size());
    if (last == first) return;
    plan.near_items.push_back(WorkItem{group, first, last, slot++});
    cost.push_back(filled);
    first = last;
    filled = 0;
    room = piece;
  };
  for (const Range& r : ranges) {
    int b = r.begin;
    while (b < r.end) {
      const int take = static_cast<int>(std::min<std::int64_t>(r.end - b, room));
      plan.near_ranges.push_back(Range{b, b + take});
      b += take;
      room -= take;
      filled += take;
      if (room == 0) close();
    }
  }
  close();
}

}  // namespace

WorkPlan plan_tree(const ListView& lists, const Balance& balance) {
  if (balance.block_threads < 1) throw std::invalid_argument("plan_tree: block_threads < 1");
  WorkPlan plan;
  const int b = balance.block_threads;
  plan.block_threads = b;

  // Totals, for the item-size limits.
  std::vector<std::vector<Range>> merged(lists.num_leaves);
  std::int64_t total_near = 0, total_far = 0;
  for (int leaf = 0; leaf < lists.num_leaves; ++leaf) {
    const int lo = lists.near_offsets[leaf], hi = lists.near_offsets[leaf + 1];
    merge_ranges(lists.near_entries + lo, hi - lo, merged[leaf]);
    std::int64_t s = 0;
    for (const Range& r : merged[leaf]) s += r.size();
    const std::int64_t groups = ceil_div(lists.target_leaves[leaf].size(), b);
    total_near += groups * s;
    if (lists.far_offsets)
      total_far += groups * (lists.far_offsets[leaf + 1] - lists.far_offsets[leaf]);
  }
  auto wanted = [&](std::size_t resident) {
    return std::max<std::int64_t>(1,
                                  static_cast<std::int64_t>(resident) * balance.items_per_resident);
  };
  const std::int64_t near_limit = std::max<std::int64_t>(
      ceil_div(total_near, wanted(balance.resident_blocks)), std::int64_t(balance.min_tiles) * b);
  const std::int64_t far_limit =
      std::max<std::int64_t>(ceil_div(total_far, wanted(balance.far_resident_blocks)), 16);

  std::vector<std::int64_t> near_cost, far_cost;
  plan.group_slots.push_back(0);
  int slot = 0;
  for (int leaf = 0; leaf < lists.num_leaves; ++leaf) {
    const std::vector<Range>& ranges = merged[leaf];
    std::int64_t s = 0;
    for (const Range& r : ranges) s += r.size();
    const int far_lo = lists.far_offsets ? lists.far_offsets[leaf] : 0;
    const int far_hi = lists.far_offsets ? lists.far_offsets[leaf + 1] : 0;
    const int nf = far_hi - far_lo;
    for_each_group(lists.target_leaves[leaf], b, [&](TargetGroup g) {
      const int group = static_cast<int>(plan.groups.size());
      plan.groups.push_back(g);
      if (s > 0) {
        const std::int64_t pieces =
            std::min<std::int64_t>(balance.max_pieces, ceil_div(s, near_limit));
        const std::int64_t piece = ceil_div(ceil_div(s, pieces), b) * b;
        cut_near(plan, near_cost, group, ranges, piece, slot);
        plan.pair_interactions += std::uint64_t(g.count) * std::uint64_t(s);
      }
      if (nf > 0) {
        const int pieces =
            static_cast<int>(std::min<std::int64_t>(balance.max_pieces, ceil_div(nf, far_limit)));
        const int piece = static_cast<int>(ceil_div(nf, pieces));
        for (int e = 0; e < nf; e += piece) {
          const int first = static_cast<int>(plan.far_nodes.size());
          const int n = std::min(piece, nf - e);
          plan.far_nodes.insert(plan.far_nodes.end(), lists.far_nodes + far_lo + e,
                                lists.far_nodes + far_lo + e + n);
          plan.far_items.push_back(WorkItem{group, first, first + n, slot++});
          far_cost.push_back(n);
        }
        plan.multipole_interactions += std::uint64_t(g.count) * std::uint64_t(nf);
      }
      plan.group_slots.push_back(slot);
    });
  }
  order_by_cost(plan.near_items, near_cost);
  order_by_cost(plan.far_items, far_cost);
  return plan;
}

WorkPlan plan_direct(int num_targets, int num_sources, const Balance& balance) {
  if (balance.block_threads < 1) throw std::invalid_argument("plan_direct: block_threads < 1");
  WorkPlan plan;
  const int b = balance.block_threads;
  plan.block_threads = b;
  for_each_group(Range{0, num_targets}, b, [&](TargetGroup g) { plan.groups.push_back(g); });
  const std::int64_t groups = static_cast<std::int64_t>(plan.groups.size());
  const double resident = static_cast<double>(std::max<std::size_t>(1, balance.resident_blocks));

  // Pieces per group: the fewest that fill the last wave to 96%, else the best fill found.
  std::int64_t best_piece = std::max(num_sources, 1);
  double best_fill = -1;
  for (int pieces = 1; pieces <= balance.max_pieces; ++pieces) {
    const std::int64_t piece = ceil_div(ceil_div(num_sources, pieces), b) * b;
    if (pieces > 1 && piece < std::int64_t(balance.min_tiles) * b) break;
    const double waves =
        groups * ceil_div(num_sources, std::max<std::int64_t>(piece, 1)) / resident;
    const double fill = waves / std::ceil(waves);
    if (fill > best_fill + 1e-9) {
      best_fill = fill;
      best_piece = piece;
    }
    if (fill >= 0.96) break;
  }

  plan.group_slots.push_back(0);
  int slot = 0;
  for (std::int64_t g = 0; g < groups; ++g) {
    for (std::int64_t s = 0; s < num_sources; s += best_piece) {
      const int first = static_cast<int>(plan.near_ranges.size());
      plan.near_ranges.push_back(Range{static_cast<int>(s), static_cast<int>(std::min<std::int64_t>(
                                                                num_sources, s + best_piece))});
      plan.near_items.push_back(WorkItem{static_cast<int>(g), first, first + 1, slot++});
    }
    plan.group_slots.push_back(slot);
  }
  plan.pair_interactions = std::uint64_t(num_targets) * std::uint64_t(num_sources);
  return plan;
}

}  // namespace vortex::gpu
