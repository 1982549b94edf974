#pragma once
// Locally essential trees: what of the other ranks' sources a rank's targets need. A rank describes
// its target leaves by a few boxes that cover them; every other rank walks its own subtrees
// against those boxes with the lists' acceptance rule (math/.../acceptance.hpp) and sends, in
// pre-order, each node the walk reaches (its geometry and multipoles), the children of those that
// some target box may open, and the particles of the leaves that may be near. The rule is
// monotone in the target box (a box inside another is at least as far), so a node far from every
// box is far from every leaf inside them: the tree received holds every node, multipole and
// particle that the one-rank lists of this rank's leaves use. The receiver assembles it into one
// tree from the global root: the top (the same on every rank), its own subtrees and the received
// parts, with the nodes no leaf can open left childless and particle-less (ranges -1, which the
// lists' check catches).

#include <cstdint>
#include <vector>

#include "comm/collectives.hpp"
#include "partition/distributed_tree.hpp"
#include "vortex/math/acceptance.hpp"
#include "vortex/math/index_range.hpp"
#include "vortex/particles.hpp"

namespace vortex::mpi::detail {

// A rank's sources with their multipoles: the local subtrees' (per local node) and the top's (per
// top node), multipoles[(node * 3 + component) * (p+1)^2 + k].
struct SourceSide {
  const DistributedTree* tree = nullptr;
  const ParticleSet* particles = nullptr;  // this rank's, in tree order, internal units
  const std::vector<double>* local_multipoles = nullptr;
  const std::vector<double>* top_multipoles = nullptr;
  int order = 0;
};

struct LetCounts {
  std::uint64_t nodes_sent = 0, particles_sent = 0;
  std::uint64_t nodes_received = 0, particles_received = 0;
};

// The boxes (lo, hi) that cover this rank's target leaves: its rank-roots' subtrees opened level by
// level until there are about `wanted` of them or all are leaves.
std::vector<KdNode> target_boxes(const DistributedTree& targets, std::size_t wanted);

// A node's global identity: its range in the global tree order.
inline long long node_key(int begin, int end) {
  return (static_cast<long long>(begin) << 32) | static_cast<unsigned>(end);
}

// This rank's locally essential tree: `tree` (from the global root), `particles` in its order,
// `multipoles` and the global key of each node.
struct Let {
  KdTree& tree;
  ParticleSet& particles;
  std::vector<double>& multipoles;
  std::vector<long long>& keys;
};

// Exchanges the locally essential trees and assembles this rank's. Collective. Ranks without
// targets receive nothing and get an empty tree.
void exchange_let(const Comm& comm, const SourceSide& sources, const std::vector<KdNode>& my_boxes,
                  const AcceptanceCriteria& criteria, const Let& let, LetCounts& counts);

// Throws std::logic_error when a near range of the lists falls on a node the exchange left without
// particles (the walk opened a node it was not sent the children of).
void check_let_lists(const std::vector<IndexRange>& near_ranges);

}  // namespace vortex::mpi::detail
