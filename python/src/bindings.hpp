#pragma once
// Pieces of the Python module, one per concept, and the numpy conversions they share.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <mutex>
#include <string>

#include "strided.hpp"
#include "vortex/field.hpp"
#include "vortex/particles.hpp"

namespace vortex {
class Solver;
}

namespace vortex::python {

namespace py = pybind11;

void bind_solver(py::module_& m);
void bind_particles(py::module_& m);
void bind_io(py::module_& m);
void bind_generators(py::module_& m);
void bind_toolkit(py::module_& m);
// DistributedSolver, in builds with MPI where mpi4py is found (no_distributed.cpp elsewhere).
void bind_distributed(py::module_& m);

// A float64 or float32 numpy array of shape (n, 3) (n = -1: any) or (n,) (vectors = false);
// raises TypeError or ValueError naming `name`. Returns its n.
py::ssize_t check_array(const py::array& a, const char* name, py::ssize_t n, bool vectors);
// The numpy array behind `object`: an ndarray as it is, anything else through numpy.asarray.
py::array as_array(const py::object& object);

// Column `component` of a checked array (vectors) or the array itself (scalars), where it lies.
strided::Column column(const py::array& a, int component);
// Whether the solver can read every column of `a` where it lies (contiguous float64 columns).
bool read_in_place(const py::array& a, bool vectors);

// Copies of library containers as numpy arrays: (n, 3) velocity, (n, 3, 3) gradient, (n, 3) points.
py::array_t<double> velocity_array(const VelocityField& f);
py::object gradient_array(const VelocityField& f);  // None without a gradient
py::array_t<double> points_array(const double* x, const double* y, const double* z, std::size_t n);
// A field from numpy velocity (n, 3) and optional gradient (n, 3, 3) arrays.
VelocityField field_from_arrays(const py::object& velocity, const py::object& gradient);

// The C++ Solver behind a Python Solver (bind_solver).
Solver& solver_of(const py::object& solver);
// That Solver held for one call: a RuntimeError when another thread's call holds it.
std::unique_lock<std::mutex> hold_solver(const py::object& solver);
// The particles held by a Python Particles object (bind_particles).
ParticleSet& particles_of(const py::object& particles);

}  // namespace vortex::python
