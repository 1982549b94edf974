#pragma once
// A VAMSplit k-d tree (vortex/kdtree.hpp) of points spread over the ranks of a communicator, built
// so that it is the tree one rank would build of all of them: the ranks own consecutive ranges of
// its tree order, cut at leaf boundaries. The ranks first decide together the adaptive cuts
// (tree_node.hpp) of the nodes that may hold a boundary; the rest of the top's shape depends only
// on the total count, so every rank lays out the top (the nodes whose range crosses a boundary
// between ranks, and their children); the cuts of those nodes are made together
// (radix_select.hpp), the points then move to the rank that owns their range, and each rank
// builds the rest, the subtrees of its rank-roots (the top's unopened nodes in its range), as
// kdtree.cpp would, their adaptive cuts included.

#include <cstdint>
#include <vector>

#include "comm/collectives.hpp"
#include "partition/record.hpp"
#include "tree/kdtree_cuts.hpp"
#include "vortex/kdtree.hpp"

namespace vortex::mpi::detail {

// Storage of a build, kept between calls.
struct TreeScratch {
  std::vector<Record> packed, received;
  std::vector<int> destination;
  std::vector<vortex::detail::TreeItem> items, reordered;
  std::vector<double> x, y, z, sigma;
  vortex::detail::DecidedCuts decided;
  std::vector<std::uint32_t> sides;  // per own record, its adaptive cuts' sides by depth
  KdTreeBuilder builder;
  KdTree subtree;
};

struct DistributedTree {
  int n = 0;  // points on all ranks
  int bucket = 0, arity = 0;
  std::vector<int> rank_begin;  // rank r owns tree positions [rank_begin[r], rank_begin[r + 1])
  // The top, the same on every rank, with global ranges and every node's geometry: nodes that hold
  // a boundary between ranks are opened (owner -1); the others are rank-roots (owner: their rank)
  // and keep no children here.
  std::vector<KdNode> top;
  std::vector<int> owner;
  // This rank's subtrees: a forest, one tree per rank-root (its root at level 0), ranges in local
  // positions (tree position - rank_begin[rank]); `leaves` in tree order.
  KdTree local;
  std::vector<int> roots;       // per local tree: its top node, in tree order
  std::vector<int> root_nodes;  // per local tree: its root's index in local.nodes
  std::vector<Record> records;  // this rank's points in tree order
  bool has_sigma = false;       // sources (their cores bound the nodes' max_sigma)
  long long moved = 0;          // this rank's points the build sent to other ranks
  TreeScratch scratch;

  int begin() const { return rank_begin.empty() ? 0 : rank_begin[rank_of_self]; }
  int end() const { return rank_begin.empty() ? 0 : rank_begin[rank_of_self + 1]; }
  int rank_of_self = 0;
};

// Builds the tree of every rank's `records` (each rank's own; positions in internal units, `from`
// set; `sigma`: whether they are sources with cores). The ranks' ranges of the tree order start
// at the fractions `shares` (ranks + 1 of them, the same on every rank; empty: equal shares).
// The split changes which rank holds what, never the tree. Collective.
void build_distributed_tree(const Comm& comm, std::vector<Record>& records, int bucket, int arity,
                            bool sigma, const std::vector<double>& shares, DistributedTree& tree);

// The fractions of the tree order at which ranks should start for equal cost, from the last
// call's: rank r held [begin[r], end[r]) of n positions and its sums cost seconds[r]
// (sums_work.hpp). A rank's cost is taken as spread evenly over its range. Empty (equal shares)
// where the costs say nothing.
std::vector<double> balanced_shares(const std::vector<int>& rank_begin,
                                    const std::vector<double>& seconds);

}  // namespace vortex::mpi::detail
