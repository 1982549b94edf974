// The C interface's distributed solver (vortex_mpi.h), in builds with MPI.

#include "vortex_mpi.h"

#include <memory>

#include "c_support.hpp"
#include "vortex/mpi/distributed_solver.hpp"

using namespace vortex::c_api;

extern "C" {

int vortex_mpi_solver_create(const vortex_options* options, MPI_Comm comm, vortex_solver** solver) {
  if (solver) *solver = nullptr;
  return guarded([&] {
    require(options && solver, "vortex_mpi_solver_create: options and solver must not be NULL");
    *solver =
        vortex_solver::of(std::make_shared<vortex::mpi::DistributedSolver>(comm, to_cpp(*options)));
  });
}

int vortex_mpi_solver_create_f(const vortex_options* options, MPI_Fint comm,
                               vortex_solver** solver) {
  return vortex_mpi_solver_create(options, MPI_Comm_f2c(comm), solver);
}

}  // extern "C"
