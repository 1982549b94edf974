#include "vortex/gpu/work_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace vortex::gpu {
namespace {

// Calls fn for each group of the target range r, at most b targets each.
template <class Fn>
void for_each_group(Range r, int b, Fn&& fn) {
  for (int begin = r.begin; begin < r.end; begin += b)
    fn(TargetGroup{begin, std::min(b, r.end - begin)});
}

// Puts items in launch order, costliest first (longest-processing-time order), by a stable
// counting sort on quarter octaves of the cost: linear time, and equal costs keep their order.
void order_by_cost(std::vector<WorkItem>& items, const std::vector<std::int64_t>& cost) {
  constexpr int kBuckets = kCostBuckets;
  auto bucket = [](std::int64_t c) { return cost_bucket(c); };
  std::vector<std::size_t> start(kBuckets + 1, 0);
  for (std::int64_t c : cost) ++start[bucket(c) + 1];
  for (int b = 0; b < kBuckets; ++b) start[b + 1] += start[b];
  std::vector<WorkItem> sorted(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) sorted[start[bucket(cost[i])]++] = items[i];
  items.swap(sorted);
}

// Appends the non-empty source ranges of one list to `out` (the lists merged abutting ranges
// already). Returns the number of sources.
std::int64_t append_ranges(const Range* entries, int n, std::vector<Range>& out) {
  std::int64_t total = 0;
  for (int i = 0; i < n; ++i) {
    if (entries[i].size() <= 0) continue;
    total += entries[i].size();
    out.push_back(entries[i]);
  }
  return total;
}

// The near ranges of every leaf, flat, and the work the lists hold.
struct LeafSources {
  std::vector<int> merged;            // leaf's ranges: near_ranges[merged[leaf], merged[leaf + 1])
  std::vector<std::int64_t> sources;  // near sources per leaf
  std::int64_t total_near = 0, total_far = 0;  // pair and multipole sums over all groups
};

LeafSources flatten_near_ranges(const ListView& lists, int b, std::vector<Range>& near_ranges) {
  const int num_leaves = lists.num_leaves;
  LeafSources out;
  out.merged.assign(num_leaves + 1, 0);
  out.sources.resize(num_leaves);
  near_ranges.reserve(lists.near_offsets[num_leaves]);
  for (int leaf = 0; leaf < num_leaves; ++leaf) {
    const int lo = lists.near_offsets[leaf], hi = lists.near_offsets[leaf + 1];
    out.sources[leaf] = append_ranges(lists.near_entries + lo, hi - lo, near_ranges);
    out.merged[leaf + 1] = static_cast<int>(near_ranges.size());
    const std::int64_t groups = ceil_div(lists.target_leaves[leaf].size(), b);
    out.total_near += groups * out.sources[leaf];
    if (lists.far_offsets)
      out.total_far += groups * (lists.far_offsets[leaf + 1] - lists.far_offsets[leaf]);
  }
  return out;
}

// Appends the items of the plan's groups with their costs and result slots.
class ItemBuilder {
 public:
  explicit ItemBuilder(WorkPlan& plan) : plan_(plan) { plan_.group_slots.push_back(0); }
  WorkPlan& plan() { return plan_; }

  void add_near(int group, int first, int last, std::int64_t cost) {
    plan_.near_items.push_back(WorkItem{group, first, last, slot_++});
    near_cost_.push_back(cost);
    const std::uint64_t pairs = std::uint64_t(plan_.groups[group].count) * std::uint64_t(cost);
    plan_.near_item_max = std::max(plan_.near_item_max, pairs);
  }

  // Pieces of whole tiles of `piece` sources, cut from the concatenated ranges; the cut ranges
  // are appended to the plan's near ranges.
  void split_near(int group, const std::vector<Range>& ranges, std::int64_t piece) {
    std::int64_t room = piece, filled = 0;
    int first = static_cast<int>(plan_.near_ranges.size());
    auto close = [&] {
      const int last = static_cast<int>(plan_.near_ranges.size());
      if (last == first) return;
      add_near(group, first, last, filled);
      first = last;
      filled = 0;
      room = piece;
    };
    for (const Range& r : ranges) {
      for (int begin = r.begin; begin < r.end;) {
        const int take = static_cast<int>(std::min<std::int64_t>(r.end - begin, room));
        plan_.near_ranges.push_back(Range{begin, begin + take});
        begin += take;
        room -= take;
        filled += take;
        if (room == 0) close();
      }
    }
    close();
  }

  // The far list entries [far_lo, far_lo + nf) in items of `piece` entries.
  void split_far(int group, int far_lo, int nf, int piece) {
    for (int e = 0; e < nf; e += piece) {
      const int n = std::min(piece, nf - e);
      plan_.far_items.push_back(WorkItem{group, far_lo + e, far_lo + e + n, slot_++});
      far_cost_.push_back(n);
      const std::uint64_t pairs = std::uint64_t(plan_.groups[group].count) * std::uint64_t(n);
      plan_.far_item_max = std::max(plan_.far_item_max, pairs);
    }
  }

  void end_group() { plan_.group_slots.push_back(slot_); }
  void order_items() {
    order_by_cost(plan_.near_items, near_cost_);
    order_by_cost(plan_.far_items, far_cost_);
  }

 private:
  WorkPlan& plan_;
  std::vector<std::int64_t> near_cost_, far_cost_;
  int slot_ = 0;
};

// The groups of one target leaf and their items: each list whole, or in pieces when it is long.
void plan_leaf(const ListView& lists, const Balance& balance, int leaf, const LeafSources& leaves,
               const PieceLimits& limits, ItemBuilder& items) {
  WorkPlan& plan = items.plan();
  const int b = balance.block_threads;
  const std::int64_t s = leaves.sources[leaf];
  const int far_lo = lists.far_offsets ? lists.far_offsets[leaf] : 0;
  const int nf = lists.far_offsets ? lists.far_offsets[leaf + 1] - far_lo : 0;
  const LeafPieces pieces = leaf_pieces(s, nf, limits, balance);
  const long long near_pieces = pieces.near_pieces;
  const int far_pieces = static_cast<int>(pieces.far_pieces);
  const int first = leaves.merged[leaf], last = leaves.merged[leaf + 1];
  // A copy: cutting appends to near_ranges.
  std::vector<Range> list;
  if (near_pieces > 1)
    list.assign(plan.near_ranges.begin() + first, plan.near_ranges.begin() + last);
  for_each_group(lists.target_leaves[leaf], b, [&](TargetGroup g) {
    const int group = static_cast<int>(plan.groups.size());
    plan.groups.push_back(g);
    if (near_pieces == 1) {
      items.add_near(group, first, last, s);
    } else if (near_pieces > 1) {
      items.split_near(group, list, pieces.near_piece);
    }
    if (s > 0) plan.pair_interactions += std::uint64_t(g.count) * std::uint64_t(s);
    if (far_pieces > 0) {
      items.split_far(group, far_lo, nf, static_cast<int>(pieces.far_piece));
      plan.multipole_interactions += std::uint64_t(g.count) * std::uint64_t(nf);
    }
    items.end_group();
  });
}

}  // namespace

WorkPlan plan_tree(const ListView& lists, const Balance& balance) {
  if (balance.block_threads < 1) throw std::invalid_argument("plan_tree: block_threads < 1");
  WorkPlan plan;
  plan.block_threads = balance.block_threads;
  // Items of unsplit lists index the flat near ranges directly.
  const LeafSources leaves = flatten_near_ranges(lists, balance.block_threads, plan.near_ranges);
  const PieceLimits limits = piece_limits(leaves.total_near, leaves.total_far, balance);
  ItemBuilder items(plan);
  for (int leaf = 0; leaf < lists.num_leaves; ++leaf)
    plan_leaf(lists, balance, leaf, leaves, limits, items);
  items.order_items();
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

  // The source pieces are shared by all groups.
  for (std::int64_t s = 0; s < num_sources; s += best_piece)
    plan.near_ranges.push_back(Range{static_cast<int>(s), static_cast<int>(std::min<std::int64_t>(
                                                              num_sources, s + best_piece))});
  const int pieces = static_cast<int>(plan.near_ranges.size());
  plan.group_slots.push_back(0);
  int slot = 0;
  for (std::int64_t g = 0; g < groups; ++g) {
    for (int k = 0; k < pieces; ++k)
      plan.near_items.push_back(WorkItem{static_cast<int>(g), k, k + 1, slot++});
    plan.group_slots.push_back(slot);
  }
  plan.pair_interactions = std::uint64_t(num_targets) * std::uint64_t(num_sources);
  int largest_group = 0, largest_piece = 0;
  for (const TargetGroup& g : plan.groups) largest_group = std::max(largest_group, g.count);
  for (const Range& r : plan.near_ranges) largest_piece = std::max(largest_piece, r.size());
  plan.near_item_max = std::uint64_t(largest_group) * std::uint64_t(largest_piece);
  return plan;
}

}  // namespace vortex::gpu
