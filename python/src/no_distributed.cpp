// The Python module of a build without MPI or mpi4py: no DistributedSolver.

#include "bindings.hpp"

namespace vortex::python {

void bind_distributed(py::module_&) {}

}  // namespace vortex::python
