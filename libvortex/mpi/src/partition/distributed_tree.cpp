#include "partition/distributed_tree.hpp"

#include <omp.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "partition/adaptive_cuts.hpp"
#include "partition/radix_select.hpp"
#include "tree/kdtree_cuts.hpp"

namespace vortex::mpi::detail {

namespace {

using vortex::detail::KdCut;
using vortex::detail::TreeItem;

// Whether [begin, end) holds one of the sorted positions strictly inside.
bool holds_any(const std::vector<int>& sorted, int begin, int end) {
  const auto it = std::upper_bound(sorted.begin(), sorted.end(), begin);
  return it != sorted.end() && *it < end;
}

// A rank boundary is moved to an end of a node of at most n / (ranks kBoundaryGrain) points: off
// its wanted place by at most 1 / (2 kBoundaryGrain) of a rank's share, and no deeper in the tree,
// since every level of cuts that a boundary crosses is a selection over all ranks.
constexpr int kBoundaryGrain = 64;

// The wanted rank boundaries: the given fractions of the n tree positions (equal shares without
// them).
std::vector<int> wanted_boundaries(int n, int ranks, const std::vector<double>& shares) {
  std::vector<int> at(ranks + 1);
  const bool given = static_cast<int>(shares.size()) == ranks + 1;
  for (int r = 0; r <= ranks; ++r)
    at[r] = given ? static_cast<int>(std::lround(std::clamp(shares[r], 0.0, 1.0) * n))
                  : static_cast<int>(static_cast<long long>(n) * r / ranks);
  at[0] = 0;
  at[ranks] = n;
  for (int r = 1; r <= ranks; ++r) at[r] = std::max(at[r], at[r - 1]);
  return at;
}

// The wanted boundaries, each moved to the nearer end of the node of at most the grain's points
// (or the leaf) that holds it, so that no such node is split between ranks. `opens`: the nodes
// of more than the grain's points that hold a wanted boundary strictly inside.
std::vector<int> rank_boundaries(int n, int bucket, int arity, std::vector<int> at,
                                 const std::function<bool(int, int)>& opens,
                                 const vortex::detail::DecidedCuts& decided) {
  std::vector<KdNode> nodes;
  std::vector<KdCut> cuts;
  vortex::detail::lay_out_top(n, bucket, arity, opens, nodes, cuts, &decided);
  // The unopened nodes that hold a wanted boundary are of at most the grain's points (or leaves):
  // the layout opened every larger one.
  const int ranks = static_cast<int>(at.size()) - 1;
  for (const KdNode& node : nodes) {
    if (!node.is_leaf()) continue;
    for (int r = 1; r < ranks; ++r)
      if (node.begin < at[r] && at[r] < node.end)
        at[r] = at[r] - node.begin <= node.end - at[r] ? node.begin : node.end;
  }
  return at;
}

// The rank whose range holds tree position `position` (the last of equal boundaries: its range is
// not empty).
int rank_of(const std::vector<int>& rank_begin, int position) {
  return static_cast<int>(std::upper_bound(rank_begin.begin(), rank_begin.end() - 1, position) -
                          rank_begin.begin()) -
         1;
}

// Cuts of equal depth touch disjoint ranges: they run in parallel, one depth after the other.
void run_cuts(std::vector<KdCut>& cuts, TreeItem* items) {
  std::stable_sort(cuts.begin(), cuts.end(),
                   [](const KdCut& a, const KdCut& b) { return a.depth < b.depth; });
  std::size_t first = 0;
  while (first < cuts.size()) {
    std::size_t last = first;
    while (last < cuts.size() && cuts[last].depth == cuts[first].depth) ++last;
    const long count = static_cast<long>(last - first);
#pragma omp parallel for schedule(dynamic, 1)
    for (long k = 0; k < count; ++k) vortex::detail::cut(items, cuts[first + k]);
    first = last;
  }
}

// The cuts of the top that cross a boundary, one depth at a time, over all ranks; each record
// ends in the piece (range of the tree order inside one rank) it belongs to. The adaptive cuts'
// sides are those their decisions found (`sides`, adaptive_cuts.hpp).
void make_global_cuts(const Comm& comm, const std::vector<KdCut>& cuts,
                      const std::vector<char>& spanning, const std::vector<std::uint32_t>& sides,
                      std::vector<Record>& records) {
  const std::size_t n = records.size();
  std::vector<int> cut_of(n, -1), members;
  const bool root_spans = !cuts.empty() && spanning[0];
  for (std::size_t i = 0; i < n; ++i) {
    records[i].piece = 0;
    if (root_spans) {
      cut_of[i] = 0;
      members.push_back(static_cast<int>(i));
    }
  }
  std::map<int, std::vector<int>> by_depth;
  for (int c = 0; c < static_cast<int>(cuts.size()); ++c)
    if (spanning[c]) by_depth[cuts[c].depth].push_back(c);
  std::vector<char> goes_left;
  std::vector<int> selected;
  // The records still in a cut across ranks are those of the next depth's cuts.
  for (const auto& [depth, ids] : by_depth) {
    std::vector<GlobalCut> batch;
    for (const int c : ids)
      if (!cuts[c].decided) batch.push_back({c, cuts[c].mid - cuts[c].begin});
    if (!batch.empty()) {
      selected.clear();
      for (const int i : members)
        if (!cuts[cut_of[i]].decided) selected.push_back(i);
      split_by_radix(comm, records, cut_of, selected, batch, goes_left);
    }
    std::size_t kept = 0;
    for (const int i : members) {
      const int c = cut_of[i];
      const bool left = cuts[c].decided ? !((sides[i] >> depth) & 1) : goes_left[i];
      const int next = left ? cuts[c].left : cuts[c].right;
      if (next >= 0 && spanning[next]) {
        cut_of[i] = next;
        members[kept++] = i;
      } else {
        cut_of[i] = -1;
        records[i].piece = left ? cuts[c].begin : cuts[c].mid;
      }
    }
    members.resize(kept);
  }
}

// Bounds, centre and radius of the top's opened nodes from their children's, the children being
// rank-roots measured by their owners or opened nodes measured first; the radius from every
// rank's points.
void measure_top(const Comm& comm, DistributedTree& tree) {
  std::vector<int> opened;
  for (int t = 0; t < static_cast<int>(tree.top.size()); ++t)
    if (tree.owner[t] < 0) opened.push_back(t);
  std::stable_sort(opened.begin(), opened.end(),
                   [&](int a, int b) { return tree.top[a].level > tree.top[b].level; });
  for (const int t : opened) {
    vortex::detail::bound_inner(tree.top[t], tree.top.data());
    vortex::detail::set_center(tree.top[t]);
  }
  std::vector<double> r2(opened.size(), 0.0);
  const int off = tree.begin();
  for (std::size_t j = 0; j < opened.size(); ++j) {
    const KdNode& node = tree.top[opened[j]];
    const int lo = std::max(node.begin, tree.begin()), hi = std::min(node.end, tree.end());
    if (lo < hi)
      r2[j] =
          vortex::detail::farthest_squared(node.center, tree.records.data(), lo - off, hi - off);
  }
  comm.allreduce(r2.data(), static_cast<int>(r2.size()), MPI_MAX);
  for (std::size_t j = 0; j < opened.size(); ++j) tree.top[opened[j]].radius = std::sqrt(r2[j]);
}

// Every record to the rank that owns its piece; what this rank receives lands in
// scratch.received.
// Returns how many records left this rank.
long long migrate(const Comm& comm, const std::vector<int>& rank_begin,
                  std::vector<Record>& records, TreeScratch& w) {
  const int ranks = comm.size();
  const std::size_t n = records.size();
  std::vector<int> counts(ranks, 0);
  w.destination.resize(n);
  for (std::size_t i = 0; i < n; ++i)
    ++counts[w.destination[i] = rank_of(rank_begin, records[i].piece)];
  std::vector<long long> next(ranks, 0);
  for (int r = 1; r < ranks; ++r) next[r] = next[r - 1] + counts[r - 1];
  w.packed.resize(n);
  for (std::size_t i = 0; i < n; ++i) w.packed[next[w.destination[i]]++] = records[i];
  comm.alltoallv(w.packed.data(), counts, w.received);
  return static_cast<long long>(n) - counts[comm.rank()];
}

// Items of the received records at their positions in this rank's range: each piece's records
// from the piece's first position on, in the order received.
void place_by_piece(const std::vector<Record>& received, int off, std::vector<TreeItem>& items) {
  items.resize(received.size());
  std::map<int, int> next;
  for (const Record& r : received) next.emplace(r.piece, r.piece - off);
  for (std::size_t i = 0; i < received.size(); ++i) {
    const Record& r = received[i];
    items[next[r.piece]++] = {{r.p[0], r.p[1], r.p[2]}, r.sigma, static_cast<std::uint32_t>(i)};
  }
}

// The subtree of the rank-root at items [first, first + count) and binary depth `depth`, built by
// the one-rank builder
// (kdtree.cpp) with its radii not yet floored; its nodes appended to tree.local, its items put
// in its tree order.
void build_subtree(int first, int count, int depth, const std::vector<Record>& received,
                   DistributedTree& tree) {
  TreeScratch& w = tree.scratch;
  TreeItem* items = tree.scratch.items.data() + first;
  w.x.resize(count), w.y.resize(count), w.z.resize(count), w.sigma.resize(count);
  for (int i = 0; i < count; ++i) {
    w.x[i] = items[i].p[0], w.y[i] = items[i].p[1], w.z[i] = items[i].p[2];
    w.sigma[i] = received[items[i].index].s;
  }
  PointsView points;
  points.x = w.x.data(), points.y = w.y.data(), points.z = w.z.data();
  points.n = static_cast<std::size_t>(count);
  KdTreeBuilder::TreeInput in;
  in.points = points;
  in.sigma = tree.has_sigma ? w.sigma.data() : nullptr;
  in.bucket = tree.bucket;
  in.radius_floor = 0;
  in.depth = depth;
  in.whole = tree.n;
  w.builder.build(in, tree.arity, w.subtree);
  std::vector<KdNode>& nodes = tree.local.nodes;
  const int base = static_cast<int>(nodes.size());
  tree.root_nodes.push_back(base);
  for (KdNode node : w.subtree.nodes) {
    node.begin += first;
    node.end += first;
    if (node.first_child >= 0) node.first_child += base;
    if (node.parent >= 0) node.parent += base;
    nodes.push_back(node);
  }
  w.reordered.resize(count);
  for (int i = 0; i < count; ++i) w.reordered[i] = items[w.subtree.permutation[i]];
  std::copy(w.reordered.begin(), w.reordered.end(), items);
}

// What a rank tells the others of one of its rank-roots.
struct RootGeometry {
  int top;
  KdNode node;
};

}  // namespace

void build_distributed_tree(const Comm& comm, std::vector<Record>& records, int bucket, int arity,
                            bool sigma, const std::vector<double>& shares, DistributedTree& tree) {
  const int ranks = comm.size(), me = comm.rank();
  const long long total = comm.sum(static_cast<long long>(records.size()));
  if (total > INT_MAX)
    throw std::invalid_argument("vortex::mpi: more than 2^31 - 1 points on all ranks together");
  tree.n = static_cast<int>(total);
  tree.bucket = bucket;
  tree.arity = arity;
  tree.rank_of_self = me;
  tree.has_sigma = sigma;
  tree.top.clear();
  tree.owner.clear();
  tree.local.nodes.clear();
  tree.local.leaves.clear();
  tree.local.bucket = bucket;
  tree.local.arity = arity;
  tree.roots.clear();
  tree.root_nodes.clear();
  if (tree.n == 0) {
    tree.rank_begin.assign(ranks + 1, 0);
    tree.records.clear();
    return;
  }
  // The boundaries lie at ends of the nodes that `opens` leaves closed, so every node that holds
  // one is opened by it: only those nodes' adaptive cuts are needed before the points move.
  const std::vector<int> wanted = wanted_boundaries(tree.n, ranks, shares);
  const std::vector<int> wanted_inner(wanted.begin() + 1, wanted.end() - 1);
  const long long grain = std::max<long long>(
      bucket, static_cast<long long>(tree.n) / (static_cast<long long>(ranks) * kBoundaryGrain));
  const std::function<bool(int, int)> opens = [&](int b, int e) {
    return e - b > grain && holds_any(wanted_inner, b, e);
  };
  vortex::detail::DecidedCuts& decided = tree.scratch.decided;
  std::vector<std::uint32_t>& sides = tree.scratch.sides;
  decide_global_cuts(comm, records, tree.n, bucket, arity, opens, decided, sides);
  tree.rank_begin = rank_boundaries(tree.n, bucket, arity, wanted, opens, decided);
  const std::vector<int> inner(tree.rank_begin.begin() + 1, tree.rank_begin.end() - 1);
  auto holds = [&](int b, int e) { return holds_any(inner, b, e); };
  std::vector<KdCut> cuts;
  vortex::detail::lay_out_top(tree.n, bucket, arity, holds, tree.top, cuts, &decided);
  tree.owner.resize(tree.top.size());
  for (std::size_t t = 0; t < tree.top.size(); ++t)
    tree.owner[t] = tree.top[t].is_leaf() ? rank_of(tree.rank_begin, tree.top[t].begin) : -1;
  std::vector<char> spanning(cuts.size());
  for (std::size_t c = 0; c < cuts.size(); ++c) {
    const KdCut& k = cuts[c];
    spanning[c] = holds(k.begin, k.end);
    if (!k.decided && is_adaptive_cut(k.end - k.begin, tree.n, k.depth))
      throw std::logic_error("vortex::mpi: an adaptive cut of the top was not decided");
  }

  // The cuts across ranks, then every point to the rank that owns its piece.
  make_global_cuts(comm, cuts, spanning, sides, records);
  tree.moved = migrate(comm, tree.rank_begin, records, tree.scratch);
  std::vector<Record>& received = tree.scratch.received;
  const int off = tree.begin();
  if (static_cast<int>(received.size()) != tree.end() - off)
    throw std::logic_error("vortex::mpi: rank " + std::to_string(me) + " received " +
                           std::to_string(received.size()) + " points for a range of " +
                           std::to_string(tree.end() - off));
  std::vector<TreeItem>& items = tree.scratch.items;
  place_by_piece(received, off, items);

  // The rest of the top's cuts in this rank's range, then the rank-roots' subtrees.
  std::vector<KdCut> local_cuts;
  for (std::size_t c = 0; c < cuts.size(); ++c)
    if (!spanning[c] && cuts[c].begin >= off && cuts[c].end <= tree.end()) {
      KdCut k = cuts[c];
      k.begin -= off, k.mid -= off, k.end -= off;
      local_cuts.push_back(k);
    }
  run_cuts(local_cuts, items.data());
  for (int t = 0; t < static_cast<int>(tree.top.size()); ++t)
    if (tree.owner[t] == me) tree.roots.push_back(t);
  std::sort(tree.roots.begin(), tree.roots.end(),
            [&](int a, int b) { return tree.top[a].begin < tree.top[b].begin; });
  for (const int t : tree.roots)
    build_subtree(tree.top[t].begin - off, tree.top[t].count(),
                  tree.top[t].level * binary_levels(arity), received, tree);
  // The records in tree order.
  tree.records.resize(items.size());
  const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(items.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < count; ++i) tree.records[i] = received[items[i].index];
  std::vector<KdNode>& nodes = tree.local.nodes;

  // The rank-roots' geometry to every rank, then the opened nodes'.
  std::vector<RootGeometry> geometry;
  for (std::size_t k = 0; k < tree.roots.size(); ++k)
    geometry.push_back({tree.roots[k], nodes[tree.root_nodes[k]]});
  for (const RootGeometry& g : comm.allgatherv(geometry)) {
    KdNode& node = tree.top[g.top];
    for (int k = 0; k < 3; ++k) {
      node.lo[k] = g.node.lo[k];
      node.hi[k] = g.node.hi[k];
      node.center[k] = g.node.center[k];
    }
    node.radius = g.node.radius;
    node.max_sigma = g.node.max_sigma;
  }
  measure_top(comm, tree);
  const double floor = tree.top[0].radius * kRadiusFloor;
  vortex::detail::floor_radii(tree.top, floor);
  vortex::detail::floor_radii(nodes, floor);
  for (int k = 0; k < static_cast<int>(nodes.size()); ++k)
    if (nodes[k].is_leaf()) tree.local.leaves.push_back(k);
  std::sort(tree.local.leaves.begin(), tree.local.leaves.end(),
            [&](int a, int b) { return nodes[a].begin < nodes[b].begin; });
}

std::vector<double> balanced_shares(const std::vector<int>& rank_begin,
                                    const std::vector<double>& seconds) {
  const int ranks = static_cast<int>(seconds.size());
  if (ranks < 2 || static_cast<int>(rank_begin.size()) != ranks + 1 || rank_begin[ranks] <= 0)
    return {};
  double total = 0;
  for (const double t : seconds) {
    if (!(t >= 0) || !std::isfinite(t)) return {};
    total += t;
  }
  if (!(total > 0)) return {};
  const double n = rank_begin[ranks];
  // The cumulative cost along the tree order is piecewise linear; each wanted boundary is where it
  // reaches r / ranks of the total.
  std::vector<double> shares(ranks + 1, 0.0);
  shares[ranks] = 1;
  int k = 0;
  double before = 0;
  for (int r = 1; r < ranks; ++r) {
    const double want = total * r / ranks;
    while (k < ranks - 1 && before + seconds[k] < want) before += seconds[k++];
    const double a = rank_begin[k] / n, b = rank_begin[k + 1] / n;
    const double f = seconds[k] > 0 ? (want - before) / seconds[k] : 0.0;
    shares[r] = a + std::clamp(f, 0.0, 1.0) * (b - a);
  }
  return shares;
}

}  // namespace vortex::mpi::detail
