#pragma once
// The CPU far field's local expansions at the top of a target tree split over ranks. One rank
// chooses M2L per target node from the far lists of every leaf below it, top-down
// (vortex/local_expansion_lists.hpp); the top's opened nodes have leaves on several ranks. So each
// rank sends the far entries common to all leaves of each of its rank-roots, with the size of the
// root's subtree. Every rank then makes the one-rank choice at the opened nodes above its roots,
// from the same entries, counts and costs. It computes their local expansions (M2L of the entries
// chosen, L2L down, as local_field.cpp does) from its locally essential tree, which holds every
// entry common to its own leaves. What its roots inherit (the expansion of their parent, the
// entries taken above them) goes to the plan's InheritedLocals, and the one-rank code does the
// rest below.

#include <vector>

#include "comm/collectives.hpp"
#include "partition/distributed_tree.hpp"
#include "tree/tree_plan.hpp"

namespace vortex::mpi::detail {

struct TopLocalInput {
  const DistributedTree* targets = nullptr;  // plan.target_tree is targets->local
  const std::vector<long long>* source_keys =
      nullptr;  // global key of each source node of the plan
  double theta = 0;
  FarField mode = FarField::Auto;
  FarFieldCosts costs;
};

// Fills plan.inherited_locals (empty for M2P). Collective.
void top_local_expansions(const Comm& comm, const TopLocalInput& in,
                          vortex::detail::TreePlan& plan);

}  // namespace vortex::mpi::detail
