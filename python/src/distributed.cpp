// vortex._vortex.DistributedSolver: the distributed solver (vortex::mpi) on numpy arrays, on an
// mpi4py communicator (builds with MPI where mpi4py is found).

#include <mpi.h>
#include <mpi4py/mpi4py.h>

#include "solver_calls.hpp"
#include "vortex/mpi/distributed_solver.hpp"
#include "vortex/solver.hpp"

namespace vortex::python {

namespace {

using PyDistributed = Engine<mpi::DistributedSolver>;

// The MPI communicator of an mpi4py.MPI.Comm.
MPI_Comm communicator_of(const py::object& comm) {
  if (import_mpi4py() < 0) throw py::error_already_set();
  if (!PyObject_TypeCheck(comm.ptr(), &PyMPIComm_Type))
    throw py::type_error("comm must be an mpi4py communicator (mpi4py.MPI.Comm), not " +
                         std::string(py::str(py::type::of(comm).attr("__name__"))));
  return *PyMPIComm_Get(comm.ptr());
}

}  // namespace

void bind_distributed(py::module_& m) {
  py::class_<PyDistributed> cls(
      m, "DistributedSolver",
      "Velocity and gradient of every rank's vortex particles (see vortex.DistributedSolver)");
  // The options come from a Solver made with them (vortex.DistributedSolver passes one), so that
  // they are read and checked in one place.
  cls.def(py::init([](const py::object& comm, const py::object& options_of) {
            const SolverOptions o = solver_of(options_of).options();
            return std::make_unique<PyDistributed>(communicator_of(comm), o);
          }),
          py::arg("comm"), py::arg("options_of"));
  bind_engine_methods(cls);
}

}  // namespace vortex::python
