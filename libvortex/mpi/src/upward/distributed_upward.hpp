#pragma once
// The upward pass of a source tree split over ranks: each rank's subtrees as on one rank (P2M,
// M2M), then the top's opened nodes, the same on every rank, by M2M from the rank-roots'
// multipoles, which every rank receives: the sums and their order are those of the one-rank pass.

#include <vector>

#include "comm/collectives.hpp"
#include "partition/distributed_tree.hpp"
#include "vortex/particles.hpp"

namespace vortex::mpi::detail {

struct DistributedMultipoles {
  std::vector<double> local;            // per node of tree.local
  std::vector<double> top;              // per node of tree.top
  std::vector<int> order, level_start;  // scratch
};

// `particles`: this rank's sources in tree order and internal units. Collective.
void distributed_upward(const Comm& comm, const DistributedTree& tree, const ParticleSet& particles,
                        int order, DistributedMultipoles& out);

}  // namespace vortex::mpi::detail
