#pragma once
// What the Python solvers share (solver.cpp, distributed.cpp): a solver with its staging storage
// and last field, its options and stats as dicts, and the calls on numpy arrays or Particles.
// Columns of contiguous float64 are read where they lie; other layouts are converted into storage
// the solver keeps between calls.

#include <memory>
#include <mutex>
#include <string>

#include "bindings.hpp"
#include "vortex/options.hpp"

namespace vortex::python {

using namespace py::literals;

// A solver S (vortex::Solver, vortex::mpi::DistributedSolver) and what its calls keep.
template <class S>
struct Engine {
  template <class... Args>
  explicit Engine(Args&&... args) : solver(std::forward<Args>(args)...) {}
  S solver;
  strided::Staging staging;
  VelocityField field;  // results of the last call, in the library's layout
  std::mutex busy;      // held by the one call that uses staging and field
};

// The engine for one call, or a RuntimeError when another thread's call holds it. Taken before
// anything is staged and kept until the results are copied out: a refused call touches neither
// the staging buffers nor the field of the call that runs. Never waits, so holding it while the
// GIL is taken back cannot deadlock.
template <class S>
std::unique_lock<std::mutex> take(Engine<S>& s) {
  std::unique_lock<std::mutex> lock(s.busy, std::try_to_lock);
  if (!lock.owns_lock())
    throw std::runtime_error(
        "this Solver is evaluating in another thread; give each thread its own");
  return lock;
}

SolverOptions make_options(const std::string& core, const std::string& method,
                           const std::string& backend, const std::string& precision, int order,
                           double theta, double kappa, int target_bucket, int source_bucket,
                           int arity, bool uniform_order, int threads, double tolerance);
py::dict tree_dict(const TreeOptions& t);
py::dict stats_dict(const EvaluationStats& s, const py::list& copied);
py::dict options_dict(const SolverOptions& o);

// Runs the evaluation without the GIL; the caller holds the engine (take).
template <class S>
py::tuple run(Engine<S>& s, SourcesView sources, PointsView targets, bool gradient,
              const py::list& copied) {
  {
    py::gil_scoped_release release;
    s.solver.evaluate(sources, targets, gradient, s.field);
  }
  return py::make_tuple(velocity_array(s.field), gradient_array(s.field),
                        stats_dict(s.field.stats, copied));
}

// The sources (and the targets, where given) staged from numpy arrays.
struct StagedCall {
  SourcesView sources;
  PointsView targets;
  py::list copied;
  py::list alive;  // the arrays read where they lie, kept for the call
};
StagedCall stage_arrays(strided::Staging& staging, const py::object& positions,
                        const py::object& strengths, const py::object& sigma,
                        const py::object& targets);
StagedCall stage_particles(strided::Staging& staging, const py::object& particles,
                           const py::object& targets);

template <class S>
py::tuple evaluate_arrays(Engine<S>& s, const py::object& positions, const py::object& strengths,
                          const py::object& sigma, const py::object& targets, bool gradient) {
  const auto held = take(s);
  const StagedCall c = stage_arrays(s.staging, positions, strengths, sigma, targets);
  return run(s, c.sources, c.targets, gradient, c.copied);
}

template <class S>
py::tuple evaluate_particles(Engine<S>& s, const py::object& particles, const py::object& targets,
                             bool gradient) {
  const auto held = take(s);
  const StagedCall c = stage_particles(s.staging, particles, targets);
  return run(s, c.sources, c.targets, gradient, c.copied);
}

// The methods every Python solver class has.
template <class S>
void bind_engine_methods(py::class_<Engine<S>>& cls) {
  cls.def("_evaluate_arrays", &evaluate_arrays<S>, py::arg("positions"), py::arg("strengths"),
          py::arg("sigma"), py::arg("targets"), py::arg("gradient"))
      .def("_evaluate_particles", &evaluate_particles<S>, py::arg("particles"), py::arg("targets"),
           py::arg("gradient"))
      .def_property_readonly("options",
                             [](const Engine<S>& s) { return options_dict(s.solver.options()); });
}

}  // namespace vortex::python
