#include "bench_runs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "cli.hpp"
#include "memory_check.hpp"
#include "vortex/generators.hpp"
#include "vortex/math/pair_kernel.hpp"
#include "vortex/multipole/m2p.hpp"
#include "vortex/solver.hpp"

namespace vortex::cli {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

SolverOptions options_for(const RunSpec& spec, const SolverOptions& base) {
  SolverOptions options = base;
  options.method = spec.method;
  options.backend = spec.backend;
  options.precision = spec.precision;
  validate_options(options);
  return options;
}

// One timed call into `field`, whose storage is reused from the previous call as a time-stepping
// code would; the solver's own total when it reports one, else the wall time.
void timed_call(Solver& solver, const ParticleSet& particles, const Points* targets, bool gradient,
                VelocityField& field) {
  const auto start = std::chrono::steady_clock::now();
  if (targets)
    solver.evaluate(particles, PointsView(*targets), gradient, field);
  else
    solver.evaluate(particles, gradient, field);
  const double wall = seconds_since(start);
  if (!(field.stats.times.total > 0)) field.stats.times.total = wall;
}

EvaluationStats median_call(std::vector<EvaluationStats> calls) {
  std::sort(calls.begin(), calls.end(), [](const EvaluationStats& a, const EvaluationStats& b) {
    return a.times.total < b.times.total;
  });
  return calls[(calls.size() - 1) / 2];
}

// Rates of the median call.
void finish(Measurement& m, bool gradient) {
  const auto& s = m.stats;
  const double total = s.times.total;
  double interactions = static_cast<double>(s.pair_interactions + s.multipole_interactions);
  if (interactions == 0 && m.spec.method == Method::Direct) {
    interactions = static_cast<double>(m.n_targets) * static_cast<double>(m.n_targets);
  }
  m.interactions_per_s = total > 0 ? interactions / total : 0;
  const double pair_time = s.times.near > 0 ? s.times.near : total;
  const int flops = gradient ? kFlopsVelocityGradientPair : kFlopsVelocityPair;
  m.pair_gflops =
      pair_time > 0 ? static_cast<double>(s.pair_interactions) * flops / pair_time * 1e-9 : 0;
  const int p = s.tree.order;
  if (p > 0 && s.times.m2p > 0) {
    const double per_pair = static_cast<double>(gradient ? multipole::m2p_velocity_gradient_flops(p)
                                                         : multipole::m2p_velocity_flops(p));
    m.far_gflops = static_cast<double>(s.multipole_interactions) * per_pair / s.times.m2p * 1e-9;
  }
  if (s.device_fp32_peak > 0) {
    m.near_peak_fraction = m.pair_gflops * 1e9 / s.device_fp32_peak;
    m.far_peak_fraction = m.far_gflops * 1e9 / s.device_fp32_peak;
  }
}

void scale(StageTimes& t, double factor) {
  for (double* v : {&t.total, &t.tree, &t.multipole, &t.lists, &t.near, &t.far, &t.transfer,
                    &t.setup, &t.far_plan, &t.m2l, &t.l2l, &t.l2p, &t.m2p}) {
    *v *= factor;
  }
}

// `count` targets spread evenly over the particles (the cases are not ordered in space).
Points strided_targets(const ParticleSet& particles, std::size_t count) {
  Points targets;
  const std::size_t n = particles.size();
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t i = k * n / count;
    targets.push_back(particles.x[i], particles.y[i], particles.z[i]);
  }
  return targets;
}

}  // namespace

RunSpec make_run(Backend backend, Method method, Precision precision) {
  RunSpec run;
  run.backend = backend;
  run.method = method;
  run.precision = precision;
  run.label = to_string(backend) + "-" + to_string(method) +
              (precision == Precision::Auto ? "" : "-" + to_string(precision));
  return run;
}

std::vector<RunSpec> parse_runs(const std::string& text, Precision default_precision) {
  if (text == "none") return {};
  std::vector<std::string> items = split_list(text);
  if (text == "auto") {
    items = {"cpu-tree"};
    if (cuda_available()) items = {"cpu-tree", "cuda-direct", "cuda-tree"};
  }
  if (items.empty()) throw UsageError("--runs: empty list (see --help)");
  std::vector<RunSpec> runs;
  for (const auto& item : items) {
    const auto parts = split_list(item, '-');
    if (parts.size() < 2 || parts.size() > 3) {
      throw UsageError("--runs: '" + item +
                       "' is not BACKEND-METHOD[-PRECISION], e.g. cpu-tree or cuda-direct-float");
    }
    RunSpec run;
    run.label = item;
    try {
      run.backend = parse_backend(parts[0]);
      run.method = parse_method(parts[1]);
      run.precision = parts.size() == 3 ? parse_precision(parts[2]) : default_precision;
    } catch (const std::invalid_argument& e) {
      throw UsageError("--runs: '" + item + "': " + e.what());
    }
    runs.push_back(run);
  }
  return runs;
}

Reference make_reference(const ParticleSet& particles, std::size_t sample, std::uint64_t seed,
                         bool gradient, Core core, int threads) {
  Reference ref;
  ref.indices = sample_indices(particles.size(), sample, seed);
  ref.targets = gather_points(particles, ref.indices);
  const auto start = std::chrono::steady_clock::now();
  ref.field = reference_field(particles, ref.targets, gradient, core, threads);
  ref.seconds = seconds_since(start);
  return ref;
}

Measurement measure(const RunSpec& spec, const SolverOptions& base, const ParticleSet& particles,
                    bool gradient, int repeat, const Reference& reference) {
  Measurement m;
  m.spec = spec;
  m.options = options_for(spec, base);
  Solver solver(m.options);
  if (resolve_backend(spec.backend) == Backend::Cuda) solver.evaluate(particles, gradient, m.field);
  std::vector<EvaluationStats> calls;
  for (int k = 0; k < std::max(repeat, 1); ++k) {
    timed_call(solver, particles, nullptr, gradient, m.field);
    calls.push_back(m.field.stats);
  }
  m.stats = median_call(calls);
  m.calls = static_cast<int>(calls.size());
  m.n_targets = m.n_targets_timed = particles.size();
  m.errors = compare_fields(m.field, reference.field, reference.indices);
  finish(m, gradient);
  return m;
}

Measurement measure_direct(const RunSpec& spec, const SolverOptions& base,
                           const ParticleSet& particles, bool gradient, int repeat,
                           const Reference& reference, double limit_s) {
  RunSpec direct = spec;
  direct.method = Method::Direct;
  const std::size_t n = particles.size();
  const bool cuda = resolve_backend(spec.backend) == Backend::Cuda;
  // A GPU needs many targets to be busy: fewer would make the estimate pessimistic.
  constexpr std::size_t kGpuSample = 1 << 16;
  const bool own_sample = cuda && reference.targets.size() < std::min(n, kGpuSample);
  const Points sample = own_sample ? strided_targets(particles, std::min(n, kGpuSample)) : Points{};
  const Points& targets = own_sample ? sample : reference.targets;
  if (targets.size() >= n) return measure(direct, base, particles, gradient, repeat, reference);

  Measurement m;
  m.spec = direct;
  m.options = options_for(direct, base);
  Solver solver(m.options);
  VelocityField first, later;
  if (cuda) solver.evaluate(particles, PointsView(targets), gradient, first);
  const double factor = static_cast<double>(n) / static_cast<double>(targets.size());
  timed_call(solver, particles, &targets, gradient, first);
  if (first.stats.times.total * factor <= limit_s) {
    return measure(direct, base, particles, gradient, repeat, reference);
  }
  std::vector<EvaluationStats> calls{first.stats};
  for (int k = 1; k < repeat; ++k) {
    timed_call(solver, particles, &targets, gradient, later);
    calls.push_back(later.stats);
  }
  m.stats = median_call(calls);
  m.calls = static_cast<int>(calls.size());
  scale(m.stats.times, factor);
  m.stats.pair_interactions = static_cast<std::uint64_t>(m.stats.pair_interactions * factor);
  m.n_targets = n;
  m.n_targets_timed = targets.size();
  m.extrapolated = true;
  const VelocityField at_reference =
      own_sample ? solver.evaluate(particles, PointsView(reference.targets), gradient) : first;
  m.errors = compare_fields(at_reference, reference.field);
  finish(m, gradient);
  return m;
}

std::vector<double> stage_values(const StageTimes& t) {
  return {t.total, t.tree, t.multipole, t.lists, t.near, t.far, t.transfer};
}

}  // namespace vortex::cli
