// The Solver front-end: validates the input, resolves the options once, builds the treecode's host
// stage, lets the chosen backend sum, and scatters the results into the caller's order once.

#include "vortex/solver.hpp"

#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backend/backend.hpp"
#include "solver/field_out.hpp"
#include "solver/thread_scope.hpp"
#include "vortex/out_of_memory.hpp"

namespace vortex {

namespace {

using detail::component_name;
using detail::first_non_finite;
using detail::NonFinite;
using detail::scatter;
using detail::size_for_overwrite;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Internal-unit copies of the sources and targets of a direct sum (O(N) against its O(N^2)).
void scale_copy(SourcesView s, detail::Units u, ParticleSet& out) {
  out.resize(s.size());
  const double l = u.length_factor(), g = u.strength_factor();
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    out.x[i] = s.x[i] * l, out.y[i] = s.y[i] * l, out.z[i] = s.z[i] * l;
    out.gx[i] = s.gx[i] * g, out.gy[i] = s.gy[i] * g, out.gz[i] = s.gz[i] * g;
    out.sigma[i] = s.sigma[i] * l;
  }
}
void scale_copy(PointsView t, detail::Units u, Points& out) {
  out.resize(t.size());
  const double l = u.length_factor();
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(t.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i)
    out.x[i] = t.x[i] * l, out.y[i] = t.y[i] * l, out.z[i] = t.z[i] * l;
}

}  // namespace

// Work storage kept between calls: a time-stepping code calls with the same sizes every step.
struct Solver::State {
  detail::TreePlan plan;
  ParticleSet direct_sources;  // internal-unit copies for the direct sum
  Points direct_targets;
  NonFinite non_finite;  // the last sum_into's first value that is not finite
  // The last call's points where its trees were built on the device from host arrays and its
  // results were all finite: what a call at the same points (evaluate_same_points) may reuse.
  struct LastPoints {
    bool valid = false, gradient = false;
    SourcesView sources;
    PointsView targets;
    int length = 0;  // the units' length exponent
    detail::ResolvedOptions options;

    bool match(SourcesView s, PointsView t, bool g, int l, const detail::ResolvedOptions& o) const {
      return valid && g == gradient && l == length && s.size() == sources.size() &&
             s.x == sources.x && s.y == sources.y && s.z == sources.z && s.sigma == sources.sigma &&
             t.size() == targets.size() && t.x == targets.x && t.y == targets.y &&
             t.z == targets.z && detail::same_plan(o, options);
    }
  } last_points;
  std::unique_ptr<detail::Backend> cpu;
  std::unique_ptr<detail::DeviceBackend> cuda;

  detail::Backend& backend(Backend b) {
    if (b == Backend::Cuda) return device();
    if (!cpu) cpu = detail::make_cpu_backend();
    return *cpu;
  }
  // The CUDA backend (throws where there is none).
  detail::DeviceBackend& device() {
    if (!cuda) cuda = detail::make_cuda_backend();
    return *cuda;
  }
};

Solver::Solver(SolverOptions options) : options_(options), state_(std::make_unique<State>()) {
  validate_options(options_);
}
Solver::~Solver() = default;
Solver::Solver(Solver&&) noexcept = default;
Solver& Solver::operator=(Solver&&) noexcept = default;

bool cuda_available() {
  return detail::cuda_device_present();
}

Backend resolve_backend(Backend requested) {
  if (requested == Backend::Cpu) return Backend::Cpu;
  if (requested == Backend::Cuda) {
    detail::require_cuda();
    return Backend::Cuda;
  }
  return cuda_available() ? Backend::Cuda : Backend::Cpu;
}

VelocityField Solver::evaluate(const ParticleSet& particles, bool gradient) {
  VelocityField out;
  evaluate(particles, PointsView(particles), gradient, out);
  return out;
}

VelocityField Solver::evaluate(const ParticleSet& sources, PointsView targets, bool gradient) {
  VelocityField out;
  evaluate(sources, targets, gradient, out);
  return out;
}

void Solver::evaluate(const ParticleSet& particles, bool gradient, VelocityField& out) {
  evaluate(particles, PointsView(particles), gradient, out);
}

void Solver::evaluate(const ParticleSet& sources, PointsView targets, bool gradient,
                      VelocityField& out) {
  SourcesView view;
  try {
    view = SourcesView(sources);  // throws when the arrays' lengths differ
  } catch (...) {
    out = VelocityField{};
    throw;
  }
  evaluate(view, targets, gradient, out);
}

void Solver::evaluate(SourcesView sources, PointsView targets, bool gradient, VelocityField& out) {
  evaluate_guarded(sources, targets, gradient, false, out);
}

void Solver::evaluate_same_points(SourcesView sources, PointsView targets, bool gradient,
                                  VelocityField& out) {
  evaluate_guarded(sources, targets, gradient, true, out);
}

void Solver::evaluate_guarded(SourcesView sources, PointsView targets, bool gradient,
                              bool same_points, VelocityField& out) {
  try {
    out.stats = EvaluationStats{};
    evaluate_into(sources, targets, gradient, same_points, out);
  } catch (const OutOfMemory&) {
    out = VelocityField{};
    throw;
  } catch (const std::bad_alloc&) {
    out = VelocityField{};
    // What was too large: the problem, in the numbers a caller can change.
    throw OutOfMemory("vortex::Solver: out of host memory evaluating " +
                      std::to_string(sources.size()) + " sources at " +
                      std::to_string(targets.size()) + " targets" +
                      (gradient ? " with the gradient" : "") + "; evaluate fewer at once");
  } catch (...) {
    out = VelocityField{};
    throw;
  }
}

void Solver::evaluate_into(SourcesView sources, PointsView targets, bool gradient, bool same_points,
                           VelocityField& result) {
  if (!state_) throw std::logic_error("vortex::Solver: used after it was moved from");
  if (sources.size() == 0) throw std::invalid_argument("no source particles (N = 0)");
  if (targets.size() == 0) throw std::invalid_argument("no target points");
  validate_inputs(sources, targets);
  sum_into(sources, targets, gradient, options_, same_points, result);
  const NonFinite bad = state_->non_finite;
  if (bad.component < 0) return;
  // Float may not hold a field that double holds: the whole call again in double.
  if (result.stats.precision == std::string("float")) {
    SolverOptions in_double = options_;
    in_double.precision = Precision::Double;
    sum_into(sources, targets, gradient, in_double, false, result);
    const NonFinite again = state_->non_finite;
    if (again.component < 0) return;
    result = VelocityField{};
    throw std::overflow_error(std::string("vortex::Solver: ") + component_name(again.component) +
                              " at target " + std::to_string(again.target) +
                              " is not finite in float or in double: the field there is beyond "
                              "double's range");
  }
  const NonFinite b = bad;
  result = VelocityField{};
  throw std::overflow_error(std::string("vortex::Solver: ") + component_name(b.component) +
                            " at target " + std::to_string(b.target) +
                            " is not finite: the field there is beyond double's range");
}

void Solver::sum_into(SourcesView sources, PointsView targets, bool gradient,
                      const SolverOptions& asked, bool same_points, VelocityField& result) {
  const auto start = Clock::now();
  State::LastPoints& last = state_->last_points;
  const State::LastPoints before = last;
  last.valid = false;  // until this call's results are in
  const detail::ResolvedOptions options = detail::resolve_options(
      asked, resolve_backend(asked.backend), detail::facts_of(sources, targets));
  detail::ThreadScope threads(options.threads);
  detail::Backend& backend = state_->backend(options.backend);
  result.stats = EvaluationStats{};
  EvaluationStats& stats = result.stats;
  const detail::Units units = detail::units_of(sources);

  if (options.method == Method::Direct) {
    scale_copy(sources, units, state_->direct_sources);
    const bool shared = targets.x == sources.x && targets.y == sources.y &&
                        targets.z == sources.z && targets.size() == sources.size();
    PointsView scaled_targets(state_->direct_sources);
    if (!shared) {
      scale_copy(targets, units, state_->direct_targets);
      scaled_targets = PointsView(state_->direct_targets);
    }
    const detail::ComponentView v = backend.direct_sum(SourcesView(state_->direct_sources),
                                                       scaled_targets, options, gradient, stats);
    const auto stage = Clock::now();
    scatter(v, nullptr, targets.size(), gradient, units, result);
    state_->non_finite = first_non_finite(result);
    stats.times.transfer += seconds_since(stage);
    stats.pair_interactions = static_cast<std::uint64_t>(sources.size()) * targets.size();
    stats.times.total = seconds_since(start);
    return;
  }

  if (options.tree_build == TreeBuild::Device) {
    // The backend writes the results into the caller's arrays itself.
    size_for_overwrite(result, targets.size(), gradient);
    double* out[12];
    for (int c = 0; c < 12; ++c)
      out[c] = c < 3 ? result.u[c].data() : (gradient ? result.du[c - 3].data() : nullptr);
    // The device checks its results where they are.
    state_->non_finite = NonFinite{};
    const bool reuse =
        same_points && before.match(sources, targets, gradient, units.length, options);
    try {
      state_->device().device_tree_sum(sources, targets, options, gradient, stats, out, false,
                                       units, reuse);
      last = {true, gradient, sources, targets, units.length, options};
    } catch (const detail::NonFiniteResult& e) {
      state_->non_finite = {e.component, static_cast<std::size_t>(e.target)};
    }
    stats.tree_build = "device";
  } else {
    detail::TreePlan& plan = state_->plan;
    detail::build_tree_plan(sources, targets, options.tree, units, plan, stats.times);
    // Counted before the sums: a backend that splits the far lists corrects the counts.
    detail::count_interactions(plan, stats);
    const detail::ComponentView v = backend.tree_sum(plan, options, gradient, stats);
    const auto stage = Clock::now();
    scatter(v, plan.target_tree.permutation.data(), targets.size(), gradient, units, result);
    state_->non_finite = first_non_finite(result);
    stats.times.transfer += seconds_since(stage);
    stats.tree_build = "host";
    stats.times.setup = stats.times.tree + stats.times.lists + stats.times.multipole;
  }
  stats.tree = options.tree;
  stats.tolerance = options.tolerance;
  stats.layout = options.layout;
  stats.times.total = seconds_since(start);
}

EvaluationStats Solver::evaluate_on_device(const DeviceSources& sources,
                                           const DeviceTargets& targets, bool gradient,
                                           const DeviceResults& out) {
  const auto start = Clock::now();
  if (!state_) throw std::logic_error("vortex::Solver: used after it was moved from");
  if (sources.n == 0) throw std::invalid_argument("no source particles (N = 0)");
  if (targets.n == 0) throw std::invalid_argument("no target points");
  if (options_.method != Method::Tree || options_.tree_build == TreeBuild::Host)
    throw std::invalid_argument(
        "evaluate_on_device: device arrays are summed by the treecode with trees built on the "
        "device (method tree, tree build auto or device)");
  if (resolve_backend(options_.backend) != Backend::Cuda)
    throw std::invalid_argument(
        "evaluate_on_device: device arrays need the CUDA backend (backend cuda, or auto on a "
        "machine with a GPU)");
  for (int c = 0; c < 3; ++c)
    if (!out.u[c])
      throw std::invalid_argument("evaluate_on_device: result array u[" + std::to_string(c) +
                                  "] is null");
  for (int c = 0; gradient && c < 9; ++c)
    if (!out.du[c])
      throw std::invalid_argument("evaluate_on_device: result array du[" + std::to_string(c) +
                                  "] is null");
  state_->last_points.valid = false;  // this call's trees take the device's storage
  SourcesView s;
  s.x = sources.x, s.y = sources.y, s.z = sources.z;
  s.gx = sources.gx, s.gy = sources.gy, s.gz = sources.gz, s.sigma = sources.sigma;
  s.n = sources.n;
  PointsView t;
  t.x = targets.x, t.y = targets.y, t.z = targets.z, t.n = targets.n;
  double* results[12] = {out.u[0], out.u[1], out.u[2]};
  for (int c = 0; c < 9; ++c) results[3 + c] = gradient ? out.du[c] : nullptr;
  detail::DevicePipeline& backend = state_->device();
  const detail::SourceFacts facts = backend.device_input_facts(s, t, results, gradient ? 12 : 3);
  detail::ResolvedOptions options = detail::resolve_options(options_, Backend::Cuda, facts);
  detail::ThreadScope threads(options.threads);
  EvaluationStats stats;
  try {
    backend.device_tree_sum(s, t, options, gradient, stats, results, true, facts.given_units,
                            false);
  } catch (const detail::NonFiniteResult& first) {
    // Float may not hold a field that double holds: the whole call again in double.
    int component = first.component;
    long long target = first.target;
    bool retried = false;
    if (options.arithmetic == detail::Arithmetic::Float) {
      SolverOptions in_double = options_;
      in_double.precision = Precision::Double;
      options = detail::resolve_options(in_double, Backend::Cuda, facts);
      stats = EvaluationStats{};
      try {
        backend.device_tree_sum(s, t, options, gradient, stats, results, true, facts.given_units,
                                false);
        retried = true;
      } catch (const detail::NonFiniteResult& again) {
        component = again.component;
        target = again.target;
      }
    }
    if (!retried)
      throw std::overflow_error(std::string("vortex::Solver::evaluate_on_device: ") +
                                component_name(component) + " at target " + std::to_string(target) +
                                " is not finite: the field there is beyond double's range");
  }
  stats.tree_build = "device";
  stats.tree = options.tree;
  stats.tolerance = options.tolerance;
  stats.layout = options.layout;
  stats.times.total = seconds_since(start);
  return stats;
}

}  // namespace vortex
