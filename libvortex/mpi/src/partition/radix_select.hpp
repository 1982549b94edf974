#pragma once
// The cuts of a tree split over ranks whose range crosses a boundary between ranks: each splits its
// particles, wherever they are, at the same place as the one-rank build (kdtree.cpp) would, along
// its dimension of largest variance at its VAMSplit count. The k-th smallest coordinate is found
// by a radix selection over the whole communicator: eight rounds, each one allreduce of a
// 256-bin histogram per cut; equal coordinates are split by rank and then local index.

#include <vector>

#include "comm/collectives.hpp"
#include "partition/record.hpp"

namespace vortex::mpi::detail {

// One cut to make: the particles of records[i] with cut_of[i] == id, of which `left` go to the
// left side (the smallest along the cut's widest dimension). An adaptive cut (tree_node.hpp; its
// `bucket` given) sets `left` itself from the points of every rank, as the one-rank build does.
struct GlobalCut {
  int id = 0;
  long long left = 0;
  bool adaptive = false;
  int bucket = 0;
};

// Sets goes_left[i] for every record i of `members` (those in one of the cuts, in increasing
// order). Collective: every rank passes the same cuts.
void split_by_radix(const Comm& comm, const std::vector<Record>& records,
                    const std::vector<int>& cut_of, const std::vector<int>& members,
                    std::vector<GlobalCut>& cuts, std::vector<char>& goes_left);

}  // namespace vortex::mpi::detail
