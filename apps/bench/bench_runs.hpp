#pragma once
// Timed solver runs shared by vortex-bench's table, report and sweeps: the run list, the generated
// cases, the double-precision reference on a sample of targets, and one measured configuration
// (median of repeated calls, errors against the reference).

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "particle_cases.hpp"
#include "vortex/error_metrics.hpp"
#include "vortex/field.hpp"
#include "vortex/options.hpp"
#include "vortex/particles.hpp"

namespace vortex::cli {

// One entry of --runs: BACKEND-METHOD[-PRECISION].
struct RunSpec {
  std::string label;
  Backend backend = Backend::Auto;
  Method method = Method::Tree;
  Precision precision = Precision::Auto;
};

// "cpu-tree,cuda-direct-float"; "auto" = cpu-tree plus cuda-direct,cuda-tree with a GPU; "none" =
// no runs. Throws UsageError naming a bad item.
std::vector<RunSpec> parse_runs(const std::string& text, Precision default_precision);
RunSpec make_run(Backend backend, Method method, Precision precision = Precision::Auto);

// The double-precision CPU direct sum at a seeded sample of targets.
struct Reference {
  std::vector<std::size_t> indices;  // sampled particle indices, sorted
  Points targets;                    // their positions
  VelocityField field;
  double seconds = 0;  // wall time of the reference sum
};
Reference make_reference(const ParticleSet& particles, std::size_t sample, std::uint64_t seed,
                         bool gradient, Core core, int threads);

struct Measurement {
  RunSpec spec;
  SolverOptions options;      // as run
  EvaluationStats stats;      // the call with the median total time (scaled when extrapolated)
  std::size_t n_targets = 0;  // targets of the evaluation reported (all particles)
  std::size_t n_targets_timed = 0;  // targets actually evaluated per timed call
  bool extrapolated = false;        // timed at n_targets_timed targets, scaled to n_targets
  int calls = 0;                    // timed calls
  double interactions_per_s = 0;
  double pair_gflops = 0;  // pair-kernel flops over the near-field (or direct) time
  // M2P flops over the M2P time, every target-box pair counted at the expansions' order p: an
  // upper bound of the flops done, since boxes well inside the acceptance take fewer terms.
  double far_gflops = 0;
  // Those rates over the GPU's FP32 peak (CUDA runs; 0 elsewhere).
  double near_peak_fraction = 0, far_peak_fraction = 0;
  FieldErrors errors;
  VelocityField field;  // the last call's field at all targets (empty when extrapolated)
};

// Every target, `repeat` timed calls (after one untimed warm-up call on CUDA, which excludes
// context creation and first allocations). Errors at the reference's sample.
Measurement measure(const RunSpec& spec, const SolverOptions& base, const ParticleSet& particles,
                    bool gradient, int repeat, const Reference& reference);

// A direct sum that may be too slow for all targets: first timed at a sample of targets (the
// reference's sample on the CPU, a sample large enough to fill the GPU on CUDA); when the estimate
// for all targets exceeds limit_s, the run is timed at that sample and its stage times and counts
// are scaled by n / sample (marked extrapolated); otherwise it runs at every target.
Measurement measure_direct(const RunSpec& spec, const SolverOptions& base,
                           const ParticleSet& particles, bool gradient, int repeat,
                           const Reference& reference,
                           double limit_s = std::numeric_limits<double>::infinity());

// The measurement's stage times as "total,tree,multipole,lists,near,far,transfer" values.
std::vector<double> stage_values(const StageTimes& t);
inline const std::vector<std::string>& stage_names() {
  static const std::vector<std::string> names{"total", "tree", "multipole", "lists",
                                              "near",  "far",  "transfer"};
  return names;
}

}  // namespace vortex::cli
