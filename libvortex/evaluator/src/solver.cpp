// The Solver front-end: validates the input, resolves the options once, builds the treecode's host
// stage, lets the chosen backend sum, and scatters the results into the caller's order once.

#include "vortex/solver.hpp"

#include <omp.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backend/backend.hpp"
#include "vortex/out_of_memory.hpp"

namespace vortex {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Sets the OpenMP thread count for the lifetime of one evaluation.
class ThreadScope {
 public:
  explicit ThreadScope(int threads) : previous_(omp_get_max_threads()) {
    if (threads > 0) omp_set_num_threads(threads);
  }
  ~ThreadScope() { omp_set_num_threads(previous_); }

 private:
  int previous_;
};

// Sizes a field whose every value is about to be written: no zeroing pass.
void size_for_overwrite(VelocityField& f, std::size_t n, bool gradient) {
  for (auto& c : f.u) c.resize(n);
  for (auto& c : f.du) c.resize(gradient ? n : 0);
  f.has_gradient = gradient;
}

// Results from the backend's order to the caller's: entry i goes to perm[i] (or to i without a
// permutation).
void scatter(const detail::ComponentView& v, const std::size_t* perm, std::size_t n, bool gradient,
             VelocityField& out) {
  size_for_overwrite(out, n, gradient);
  const int nc = gradient ? 12 : 3;
  auto dst = [&](int c) { return c < 3 ? out.u[c].data() : out.du[c - 3].data(); };
  if (!perm) {
#pragma omp parallel for schedule(static) collapse(2)
    for (int c = 0; c < nc; ++c)
      for (int part = 0; part < 16; ++part) {
        const std::size_t lo = n * part / 16, hi = n * (part + 1) / 16;
        std::memcpy(dst(c) + lo, v.component[c] + lo, (hi - lo) * sizeof(double));
      }
    return;
  }
  double* d[12];
  for (int c = 0; c < nc; ++c) d[c] = dst(c);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = perm[i];
    for (int c = 0; c < nc; ++c) d[c][j] = v.component[c][i];
  }
}

}  // namespace

// Work storage kept between calls: a time-stepping code calls with the same sizes every step.
struct Solver::State {
  detail::TreePlan plan;
  std::unique_ptr<detail::Backend> cpu, cuda;

  detail::Backend& backend(Backend b) {
    auto& slot = b == Backend::Cuda ? cuda : cpu;
    if (!slot) slot = b == Backend::Cuda ? detail::make_cuda_backend() : detail::make_cpu_backend();
    return *slot;
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
  try {
    out.stats = EvaluationStats{};
    evaluate_into(sources, targets, gradient, out);
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

void Solver::evaluate_into(SourcesView sources, PointsView targets, bool gradient,
                           VelocityField& result) {
  const auto start = Clock::now();
  if (!state_) throw std::logic_error("vortex::Solver: used after it was moved from");
  if (sources.size() == 0) throw std::invalid_argument("no source particles (N = 0)");
  if (targets.size() == 0) throw std::invalid_argument("no target points");
  validate_inputs(sources, targets);
  const detail::ResolvedOptions options =
      detail::resolve_options(options_, resolve_backend(options_.backend), sources);
  ThreadScope threads(options.threads);
  detail::Backend& backend = state_->backend(options.backend);
  EvaluationStats& stats = result.stats;

  if (options.method == Method::Direct) {
    const detail::ComponentView v = backend.direct_sum(sources, targets, options, gradient, stats);
    const auto stage = Clock::now();
    scatter(v, nullptr, targets.size(), gradient, result);
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
    backend.device_tree_sum(sources, targets, options, gradient, stats, out, false);
    stats.tree_build = "device";
  } else {
    detail::TreePlan& plan = state_->plan;
    detail::build_tree_plan(sources, targets, options.tree, plan, stats.times);
    // Counted before the sums: a backend that splits the far lists corrects the counts.
    detail::count_interactions(plan, stats);
    const detail::ComponentView v = backend.tree_sum(plan, options, gradient, stats);
    const auto stage = Clock::now();
    scatter(v, plan.target_tree.permutation.data(), targets.size(), gradient, result);
    stats.times.transfer += seconds_since(stage);
    stats.tree_build = "host";
    stats.times.setup = stats.times.tree + stats.times.lists + stats.times.multipole;
  }
  stats.tree = options.tree;
  stats.tolerance = options.tolerance;
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
  SourcesView s;
  s.x = sources.x, s.y = sources.y, s.z = sources.z;
  s.gx = sources.gx, s.gy = sources.gy, s.gz = sources.gz, s.sigma = sources.sigma;
  s.n = sources.n;
  PointsView t;
  t.x = targets.x, t.y = targets.y, t.z = targets.z, t.n = targets.n;
  double* results[12] = {out.u[0], out.u[1], out.u[2]};
  for (int c = 0; c < 9; ++c) results[3 + c] = gradient ? out.du[c] : nullptr;
  detail::Backend& backend = state_->backend(Backend::Cuda);
  const detail::ResolvedOptions options = detail::resolve_options(
      options_, Backend::Cuda, backend.device_input_facts(s, t, results, gradient ? 12 : 3));
  ThreadScope threads(options.threads);
  EvaluationStats stats;
  backend.device_tree_sum(s, t, options, gradient, stats, results, true);
  stats.tree_build = "device";
  stats.tree = options.tree;
  stats.tolerance = options.tolerance;
  stats.times.total = seconds_since(start);
  return stats;
}

}  // namespace vortex
