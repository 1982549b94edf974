// The extension module vortex._vortex; vortex/__init__.py re-exports it with Python conveniences.

#include "bindings.hpp"

PYBIND11_MODULE(_vortex, m) {
  m.doc() = "Velocity and velocity gradient of vortex particles (multipole treecode, CPU or CUDA)";
  vortex::python::bind_particles(m);
  vortex::python::bind_solver(m);
  vortex::python::bind_io(m);
  vortex::python::bind_generators(m);
  vortex::python::bind_toolkit(m);
  vortex::python::bind_distributed(m);
}
