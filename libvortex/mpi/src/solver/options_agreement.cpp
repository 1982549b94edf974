#include "solver/options_agreement.hpp"

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vortex::mpi::detail {

namespace {

// The options that change the sums, by name.
std::vector<std::pair<const char*, double>> fields(const SolverOptions& o) {
  return {{"core", static_cast<double>(o.core)},
          {"method", static_cast<double>(o.method)},
          {"backend", static_cast<double>(o.backend)},
          {"precision", static_cast<double>(o.precision)},
          {"tree.order", static_cast<double>(o.tree.order)},
          {"tree.theta", o.tree.theta},
          {"tree.kappa", o.tree.kappa},
          {"tree.target_bucket", static_cast<double>(o.tree.target_bucket)},
          {"tree.source_bucket", static_cast<double>(o.tree.source_bucket)},
          {"tree.arity", static_cast<double>(o.tree.arity)},
          {"tree.uniform_order", o.tree.uniform_order ? 1.0 : 0.0},
          {"tree_build", static_cast<double>(o.tree_build)},
          {"far_field", static_cast<double>(o.far_field)},
          {"tolerance", o.tolerance}};
}

std::string text(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

}  // namespace

void agree_on_options(const Comm& comm, const SolverOptions& options) {
  agree_on_fields(comm, fields(options));
}

void agree_on_fields(const Comm& comm, const std::vector<std::pair<const char*, double>>& mine) {
  std::vector<double> root(mine.size());
  for (std::size_t k = 0; k < mine.size(); ++k) root[k] = mine[k].second;
  check(MPI_Bcast(root.data(), static_cast<int>(root.size()), MPI_DOUBLE, 0, comm.get()),
        "MPI_Bcast");
  together(comm, [&] {
    for (std::size_t k = 0; k < mine.size(); ++k)
      if (!(mine[k].second == root[k]))
        throw std::invalid_argument("vortex::mpi: option " + std::string(mine[k].first) +
                                    " differs between ranks: rank 0 has " + text(root[k]) +
                                    ", rank " + std::to_string(comm.rank()) + " has " +
                                    text(mine[k].second));
  });
}

void agree_on_backend(const Comm& comm, Backend resolved) {
  const std::vector<int> all = comm.allgather(static_cast<int>(resolved));
  for (int r = 1; r < comm.size(); ++r)
    if (all[r] != all[0])
      throw std::invalid_argument(
          "vortex::mpi: the ranks resolved the backend differently: rank 0 runs " +
          to_string(static_cast<Backend>(all[0])) + ", rank " + std::to_string(r) + " runs " +
          to_string(static_cast<Backend>(all[r])) +
          " (ask for one backend, or give every rank a GPU)");
}

}  // namespace vortex::mpi::detail
