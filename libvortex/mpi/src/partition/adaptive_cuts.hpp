#pragma once
// The adaptive cuts (vortex/math/tree_node.hpp) of a tree split over ranks, decided by all ranks
// together before its shape is laid out (distributed_tree.hpp).

#include <vector>

#include "comm/collectives.hpp"
#include "partition/record.hpp"
#include "tree/kdtree_topology.hpp"

namespace vortex::mpi::detail {

// The adaptive cuts of the whole tree of the n points of every rank's `records`, depth by depth,
// each placed from the points of every rank as the one-rank build places it. Only their positions
// are kept: the records stay where they are, and the tree's cuts make them again at those
// positions. Collective.
void decide_global_cuts(const Comm& comm, const std::vector<Record>& records, int n, int bucket,
                        vortex::detail::DecidedCuts& decided);

}  // namespace vortex::mpi::detail
