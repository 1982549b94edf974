#pragma once
// What option resolution reads of the sources (backend/resolved_options.hpp, SourceFacts), taken
// over every rank's sources and targets, so that every rank resolves the options, the units and
// the float origin that one Solver would for the whole set.

#include "backend/resolved_options.hpp"
#include "comm/collectives.hpp"
#include "vortex/particles.hpp"

namespace vortex::mpi::detail {

struct GlobalFacts {
  vortex::detail::SourceFacts facts;   // given (not on_host), with the units
  long long sources = 0, targets = 0;  // on all ranks
};

// Collective.
GlobalFacts global_facts(const Comm& comm, SourcesView sources, PointsView targets);

}  // namespace vortex::mpi::detail
