#pragma once
// The shape of a VAMSplit k-d tree (vortex/kdtree.hpp). Below the adaptive cuts (tree_node.hpp) it
// depends only on the number of points, the bucket size and the arity; the data only choose the
// cut dimensions. So the builders first make the adaptive cuts, whose positions the data decide,
// then lay out the nodes and the other cuts, and the partitions (on the host or on the device)
// follow them.

#include <cstddef>
#include <functional>
#include <vector>

#include "vortex/math/tree_node.hpp"

namespace vortex::detail {

// One binary VAMSplit cut of [begin, end) at mid; left/right: the cuts of [begin, mid) and
// [mid, end), or -1. Cuts of equal depth touch disjoint ranges.
struct KdCut {
  int begin, mid, end, depth;
  int left = -1, right = -1;
  bool decided = false;  // an adaptive cut, its position given by DecidedCuts
};

// The adaptive cuts' positions, found by their ranges (a cut range is cut at one depth only).
class DecidedCuts {
 public:
  void clear() { cuts_.clear(); }
  void add(int begin, int mid, int end) { cuts_.push_back({begin, mid, end, 0}); }
  // Sorts the cuts for mid(); call after the last add.
  void finish();
  // The position of the cut of [begin, end), or -1 when it was not decided.
  int mid(int begin, int end) const;
  std::size_t size() const { return cuts_.size(); }
  bool operator==(const DecidedCuts& o) const;
  bool operator!=(const DecidedCuts& o) const { return !(*this == o); }

 private:
  std::vector<KdCut> cuts_;
};

// The multiple of the bucket size closest to the middle, so the left part fills its leaves exactly.
int split_position(int count, int bucket);

// The nodes (ranges, children, parents, levels; no bounds) and the cuts of the tree of n >= 1
// points, with the positions of `decided` (none when null). A node of arity 2^k is made of k
// depths of binary cuts; children are laid out per parent, depth first.
void lay_out_kdtree(int n, int bucket, int arity, std::vector<KdNode>& nodes,
                    std::vector<KdCut>& cuts, const DecidedCuts* decided = nullptr);

// The same tree with only the nodes for which open(begin, end) holds expanded: the others keep no
// children (and no cuts), whatever their size. With a test that opens the nodes holding a boundary
// between ranks, the top of a tree split over ranks (libvortex/mpi/).
void lay_out_top(int n, int bucket, int arity, const std::function<bool(int, int)>& open,
                 std::vector<KdNode>& nodes, std::vector<KdCut>& cuts,
                 const DecidedCuts* decided = nullptr);

}  // namespace vortex::detail
