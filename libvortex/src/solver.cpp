#include "vortex/solver.hpp"

#include <omp.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <tuple>

#include "evaluation.hpp"

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

// Sources and targets in tree order, written into storage kept from the previous call.
void permute_sources(const ParticleSet& s, const std::vector<std::size_t>& perm, ParticleSet& out) {
  out.resize(perm.size());
  const std::size_t n = perm.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = perm[i];
    out.x[i] = s.x[j];
    out.y[i] = s.y[j];
    out.z[i] = s.z[j];
    out.gx[i] = s.gx[j];
    out.gy[i] = s.gy[j];
    out.gz[i] = s.gz[j];
    out.sigma[i] = s.sigma[j];
  }
}

void permute_points(PointsView t, const std::vector<std::size_t>& perm, Points& out) {
  out.resize(perm.size());
  const std::size_t n = perm.size();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    out.x[i] = t.x[perm[i]];
    out.y[i] = t.y[perm[i]];
    out.z[i] = t.z[perm[i]];
  }
}

// Sizes a field whose every value is about to be written: no zeroing pass.
void size_for_overwrite(VelocityField& f, std::size_t n, bool gradient) {
  for (auto& c : f.u) c.resize(n);
  for (auto& c : f.du) c.resize(gradient ? n : 0);
  f.has_gradient = gradient;
}

// Moves results from tree order back to the caller's order.
void unpermute(const VelocityField& sorted, const std::vector<std::size_t>& perm,
               VelocityField& out) {
  const std::size_t n = perm.size();
  const bool gradient = sorted.has_gradient;
  size_for_overwrite(out, n, gradient);
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = perm[i];
    for (int a = 0; a < 3; ++a) out.u[a][j] = sorted.u[a][i];
    if (gradient)
      for (int k = 0; k < 9; ++k) out.du[k][j] = sorted.du[k][i];
  }
}

void count_interactions(const detail::TreePlan& plan, EvaluationStats& stats) {
  const auto& lists = plan.lists;
  std::uint64_t pairs = 0, m2p = 0;
  for (std::size_t leaf = 0; leaf < plan.target_tree.leaves.size(); ++leaf) {
    const std::uint64_t targets = plan.target_tree.nodes[plan.target_tree.leaves[leaf]].count();
    std::uint64_t sources = 0;
    for (int k = lists.near_offsets[leaf]; k < lists.near_offsets[leaf + 1]; ++k)
      sources += plan.source_tree.nodes[lists.near_nodes[k]].count();
    pairs += targets * sources;
    m2p += targets * (lists.far_offsets[leaf + 1] - lists.far_offsets[leaf]);
  }
  stats.pair_interactions = pairs;
  stats.multipole_interactions = m2p;
  stats.near_list_entries = lists.near_nodes.size();
  stats.far_list_entries = lists.far_nodes.size();
  stats.target_leaves = plan.target_tree.leaves.size();
  stats.source_nodes = plan.source_tree.nodes.size();
}

std::string cpu_device_name() {
  return "cpu (" + std::to_string(omp_get_max_threads()) + " threads)";
}

}  // namespace

// Work storage kept between calls: a time-stepping code calls with the same sizes every step.
struct Solver::State {
  detail::TreePlan plan;
  VelocityField sorted;  // results in target-tree order
#ifdef VORTEX_HAVE_CUDA
  detail::CudaWorkspacePtr cuda;
#endif
};

Solver::Solver(SolverOptions options) : options_(options), state_(std::make_unique<State>()) {
  validate_options(options_);
}
Solver::~Solver() = default;
Solver::Solver(Solver&&) noexcept = default;
Solver& Solver::operator=(Solver&&) noexcept = default;

bool cuda_available() {
#ifdef VORTEX_HAVE_CUDA
  return detail::cuda_device_present();
#else
  return false;
#endif
}

Backend resolve_backend(Backend requested) {
  if (requested == Backend::Cpu) return Backend::Cpu;
  if (requested == Backend::Cuda) {
#ifdef VORTEX_HAVE_CUDA
    if (!detail::cuda_device_present())
      throw std::runtime_error("backend 'cuda' was requested but no CUDA device is present");
    return Backend::Cuda;
#else
    throw std::runtime_error("backend 'cuda' was requested but this build has no CUDA support");
#endif
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
  try {
    out.stats = EvaluationStats{};
    evaluate_into(sources, targets, gradient, out);
  } catch (...) {
    out = VelocityField{};
    throw;
  }
}

void Solver::evaluate_into(const ParticleSet& sources, PointsView targets, bool gradient,
                           VelocityField& result) {
  const auto start = Clock::now();
  if (!state_) throw std::logic_error("vortex::Solver: used after it was moved from");
  if (sources.size() == 0) throw std::invalid_argument("no source particles (N = 0)");
  if (targets.size() == 0) throw std::invalid_argument("no target points");
  validate_sources(sources);
  validate_targets(targets);
  validate_length_scales(sources, targets);
  const Backend backend = resolve_backend(options_.backend);
  ThreadScope threads(options_.threads);

  if (options_.method == Method::Direct) {
    if (backend == Backend::Cuda) {
#ifdef VORTEX_HAVE_CUDA
      if (!state_->cuda) state_->cuda = detail::make_cuda_workspace();
      detail::direct_sum_cuda(*state_->cuda, sources, targets, options_, gradient, result);
#endif
    } else {
      detail::direct_sum_cpu(sources, targets, options_.core, gradient, result);
      result.stats.backend = "cpu";
      result.stats.precision = "double";
      result.stats.device = cpu_device_name();
      result.stats.times.near = seconds_since(start);
    }
    result.stats.times.total = seconds_since(start);
    return;
  }

  // Treecode: trees and lists on the CPU, then near and far fields on the chosen backend.
  const TreeOptions t = resolve_tree_options(options_.tree, options_.core, backend);
  detail::TreePlan& plan = state_->plan;
  plan.order = t.order;
  auto stage = Clock::now();
  std::tie(plan.source_tree, plan.target_tree) =
      build_kdtree_pair(PointsView(sources), sources.sigma.data(), t.source_bucket, targets,
                        nullptr, t.target_bucket, t.arity);
  permute_sources(sources, plan.source_tree.permutation, plan.sources);
  permute_points(targets, plan.target_tree.permutation, plan.targets);
  const double tree_time = seconds_since(stage);

  stage = Clock::now();
  plan.lists = build_interaction_lists(plan.target_tree, plan.source_tree,
                                       AcceptanceCriteria{t.theta, t.kappa});
  const double lists_time = seconds_since(stage);

  VelocityField& sorted = state_->sorted;
  sorted.stats = EvaluationStats{};
  if (backend == Backend::Cuda) {
#ifdef VORTEX_HAVE_CUDA
    size_for_overwrite(sorted, targets.size(), gradient);  // the download fills every value
    if (!state_->cuda) state_->cuda = detail::make_cuda_workspace();
    detail::evaluate_tree_cuda(*state_->cuda, plan, options_, gradient, sorted);
#endif
  } else {
    sorted.resize(targets.size(), gradient);  // the near and far fields add into it
    stage = Clock::now();
    detail::compute_multipoles(plan);
    sorted.stats.times.multipole = seconds_since(stage);
    stage = Clock::now();
    const bool single = options_.precision == Precision::Float;
    detail::evaluate_near_cpu(plan, options_.core, single, gradient, sorted);
    sorted.stats.times.near = seconds_since(stage);
    stage = Clock::now();
    detail::evaluate_far_cpu(plan, single, gradient, sorted);
    sorted.stats.times.far = seconds_since(stage);
    sorted.stats.backend = "cpu";
    sorted.stats.precision = single ? "float" : "double";
    sorted.stats.device = cpu_device_name();
  }
  stage = Clock::now();
  unpermute(sorted, plan.target_tree.permutation, result);
  result.stats = sorted.stats;
  count_interactions(plan, result.stats);
  result.stats.tree = t;
  result.stats.times.tree = tree_time + seconds_since(stage);
  result.stats.times.lists = lists_time;
  result.stats.times.total = seconds_since(start);
}

}  // namespace vortex
