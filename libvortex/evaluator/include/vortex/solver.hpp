#pragma once
// The Solver: evaluates the velocity (and optionally its gradient) induced by vortex particles at
// target points, with the direct sum or the multipole treecode, on CPU threads or on a CUDA GPU.
//
//   vortex::Solver solver(options);
//   vortex::VelocityField f = solver.evaluate(particles, /*gradient=*/true);
//
// A Solver keeps its work buffers (and device memory) between calls, so a time-stepping code
// should create one and call it every step. Because of those buffers, one Solver must not be
// called from several threads at once; give each thread its own. Inputs are never modified.

#include <memory>

#include "vortex/device_arrays.hpp"
#include "vortex/field.hpp"
#include "vortex/options.hpp"
#include "vortex/particles.hpp"

namespace vortex {

class Solver {
 public:
  explicit Solver(SolverOptions options = {});
  ~Solver();
  Solver(Solver&&) noexcept;
  Solver& operator=(Solver&&) noexcept;

  const SolverOptions& options() const { return options_; }

  // Velocity of the particles' own field at the particles (self term excluded).
  VelocityField evaluate(const ParticleSet& particles, bool gradient);
  // Velocity of `sources` at arbitrary `targets` (field points, panel collocation points, ...).
  VelocityField evaluate(const ParticleSet& sources, PointsView targets, bool gradient);

  // The same into `out`, reusing its storage: a time-stepping code that keeps `out` between steps
  // allocates (and page-faults) nothing after the first call, which at millions of targets is a
  // measurable part of a GPU evaluation. On error `out` is left empty.
  void evaluate(const ParticleSet& particles, bool gradient, VelocityField& out);
  void evaluate(const ParticleSet& sources, PointsView targets, bool gradient, VelocityField& out);
  // Sources in the caller's own arrays (no copy is made of them).
  void evaluate(SourcesView sources, PointsView targets, bool gradient, VelocityField& out);
  // The last call's points with new strengths: for many products over one set of points (a
  // boundary-element operator's). The caller passes the last call's arrays (the same pointers)
  // with the positions, cores and targets unchanged (they are not compared) and new gx, gy, gz.
  // Where that call built its trees on the device from host arrays, with the same options
  // resolved and the same `gradient`, its trees, interaction lists and work plan serve again: the
  // call uploads the strengths and computes the multipoles and the sums. Otherwise (other
  // pointers or counts, another backend or path) it is a full evaluate().
  void evaluate_same_points(SourcesView sources, PointsView targets, bool gradient,
                            VelocityField& out);

  // Sources, targets and results in GPU memory (device_arrays.hpp), for solvers that keep their
  // particles on the device: the treecode with its trees built there (Method::Tree, a backend
  // that resolves to Cuda, TreeBuild Auto or Device). The input is checked on the device (a bad
  // entry or a host pointer throws std::invalid_argument naming it, and nothing is written); the
  // call returns when the results are in `out`. Returns the call's stats.
  EvaluationStats evaluate_on_device(const DeviceSources& sources, const DeviceTargets& targets,
                                     bool gradient, const DeviceResults& out);

 private:
  void evaluate_guarded(SourcesView sources, PointsView targets, bool gradient, bool same_points,
                        VelocityField& out);
  void evaluate_into(SourcesView sources, PointsView targets, bool gradient, bool same_points,
                     VelocityField& out);
  void sum_into(SourcesView sources, PointsView targets, bool gradient, const SolverOptions& asked,
                bool same_points, VelocityField& out);

  struct State;
  SolverOptions options_;
  std::unique_ptr<State> state_;
};

// Whether a CUDA device can be used by this build on this machine.
bool cuda_available();
// The backend that Backend::Auto resolves to (Cpu or Cuda).
Backend resolve_backend(Backend requested);

}  // namespace vortex
