#pragma once
// The adaptive cuts (vortex/math/tree_node.hpp) of a tree split over ranks that its top needs,
// decided by all ranks together before the top is laid out (distributed_tree.hpp).

#include <cstdint>
#include <functional>
#include <vector>

#include "comm/collectives.hpp"
#include "partition/record.hpp"
#include "tree/kdtree_topology.hpp"

namespace vortex::mpi::detail {

// The adaptive cuts inside the nodes of the whole tree of the n points of every rank's `records`
// for which open(begin, end) holds (each node's binary depths, for an arity above 2), depth by
// depth, each placed from the points of every rank as the one-rank build places it. `open` must
// hold only where it holds for the node's parent: the nodes it opens are the top of the tree.
// The other adaptive cuts lie in rank-roots' subtrees, whose builds decide them alone. The records
// stay where they are; sides[i], bit d: record i went right at binary depth d, so that the cuts
// across ranks (distributed_tree.cpp) need not select again. Collective.
void decide_global_cuts(const Comm& comm, const std::vector<Record>& records, int n, int bucket,
                        int arity, const std::function<bool(int, int)>& open,
                        vortex::detail::DecidedCuts& decided, std::vector<std::uint32_t>& sides);

}  // namespace vortex::mpi::detail
