#pragma once
// Local-expansion lists of the CPU far field, built from the interaction lists
// (interaction_lists.hpp) as a stage of their own: which far source nodes are translated into a
// target node's local expansion (M2L), shifted down the target tree (L2L) and evaluated at the
// targets (L2P), and which stay evaluated at each target leaf (M2P).
//
// The near ranges are not touched, and the far entries of a leaf are split, never changed: a far
// entry s of leaf L is either on the M2L list of exactly one of L's ancestors T (L included) or on
// L's M2P list. A source node s may go on T's M2L list only when it is on the far list of every
// leaf under T and the local expansion about T's centre converges there at least as fast as the
// leaves' M2P: (r_s + r_T) < theta |c_s - c_T| (m2l_accepts). Whether T takes them is decided per
// target node, top-down, by the modelled cost of each operation (FarFieldCosts, field.hpp).

#include <cstddef>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/interaction_lists.hpp"
#include "vortex/kdtree.hpp"
#include "vortex/math/local_choice.hpp"
#include "vortex/options.hpp"

namespace vortex {

struct LocalExpansionLists {
  // Per target node (the target tree's node order): the source nodes translated into its local
  // expansion, [m2l_offsets[T], m2l_offsets[T + 1]) of m2l_nodes.
  std::vector<int> m2l_offsets, m2l_nodes;
  // Per target node: 1 where it holds a local expansion (its own M2L or a parent's, by L2L).
  std::vector<unsigned char> has_local;
  // Per target leaf (KdTree::leaves order): the far entries left to M2P, in their far-list order,
  // and their orders.
  std::vector<int> m2p_offsets, m2p_nodes;
  std::vector<unsigned char> m2p_orders;
  // Operations the lists ask for.
  std::size_t m2l_count = 0, l2l_count = 0, l2p_targets = 0, m2p_pairs = 0;

  // Storage of the build, kept so that a rebuild of similar size allocates nothing: per target
  // node a slot of room[T] entries at slot_offsets[T] holding the far entries common to all its
  // leaves (inner nodes), those taken by M2L at it or above (where it takes; taken_owner[T] is the
  // node whose slot holds T's), and its M2L list; the nodes by level; counts per node and leaf;
  // per thread a mark per source node.
  std::vector<std::size_t> slot_offsets;
  std::vector<int> room, common, common_count, taken, taken_count, taken_owner, m2l, m2l_count_of;
  std::vector<int> subtree, by_level, level_start, level_fill, leaf_of, m2p_count;
  std::vector<unsigned char> marks;
  std::vector<int> inherited_of;  // per target node: its entry in the inherited roots, or -1

  bool inherits = false;  // some root inherits a local expansion (InheritedLocals below)

  bool any_local() const { return m2l_count > 0 || inherits; }
};

// What roots of a target tree inherit from nodes above them that the tree does not hold (the top
// of a tree split over ranks, libvortex/mpi/): a local expansion from the root's parent, which the
// root's own is shifted from by L2L, and the source nodes the M2L of the parent or its ancestors
// took (which its leaves then leave out of M2P).
struct InheritedLocals {
  std::vector<int> roots;                    // target nodes (roots: parent -1) that inherit
  std::vector<int> taken_offsets{0}, taken;  // per root: source nodes taken above it
  std::vector<double> centers;               // per root: the centre the expansion is about (3 each)
  std::vector<double> expansions;  // per root: the expansion, multipole::local_size(q) each

  std::size_t size() const { return roots.size(); }
  void clear() {
    roots.clear();
    taken_offsets.assign(1, 0);
    taken.clear();
    centers.clear();
    expansions.clear();
  }
};

// The lists for `mode` (M2P: no M2L; Local: every M2L allowed, at the highest target node that
// allows it; Auto: where the costs say it is cheaper), into `out`, reusing its storage. With
// `inherited`, its roots start from what they inherit.
void build_local_expansion_lists(const KdTree& targets, const KdTree& sources,
                                 const InteractionLists& lists, double theta, FarField mode,
                                 const FarFieldCosts& costs, LocalExpansionLists& out,
                                 const InheritedLocals* inherited = nullptr);

}  // namespace vortex
