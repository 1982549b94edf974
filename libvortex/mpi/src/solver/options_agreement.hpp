#pragma once
// Every rank of a distributed call must ask for the same sums: the options (all but the thread
// count, a rank's own resource) are compared with rank 0's, and the backends they resolve to with
// each other.

#include <utility>
#include <vector>

#include "comm/collectives.hpp"
#include "vortex/options.hpp"

namespace vortex::mpi::detail {

// Collective. Throws std::invalid_argument on every rank, naming the first option that differs
// and the ranks' values.
void agree_on_options(const Comm& comm, const SolverOptions& options);
// The same for any named values (the toolkit's options on ranks); every rank passes the same names.
void agree_on_fields(const Comm& comm, const std::vector<std::pair<const char*, double>>& fields);
// Collective. Throws std::invalid_argument on every rank when the ranks resolved Backend::Auto to
// different backends (a rank without a GPU beside ranks with one).
void agree_on_backend(const Comm& comm, Backend resolved);

}  // namespace vortex::mpi::detail
