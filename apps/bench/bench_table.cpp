#include "bench_table.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_runs.hpp"
#include "json_writer.hpp"
#include "measurement_io.hpp"
#include "particle_files.hpp"
#include "report_context.hpp"
#include "solver_cli.hpp"
#include "tables.hpp"
#include "vortex/file_io.hpp"
#include "vortex/solver.hpp"

namespace vortex::cli {

namespace {

// The process's largest resident set so far (the particles, results and the library's storage).
std::uint64_t peak_host_bytes() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

void write_json(const std::string& path, const std::string& case_name, std::size_t n,
                std::uint64_t seed, double scale, Core core,
                const std::vector<Measurement>& results) {
  JsonWriter json;
  json.begin_object()
      .field("case", case_name)
      .field("n", static_cast<std::uint64_t>(n))
      .field("seed", seed)
      .field("core", to_string(core));
  if (scale != 1) json.field("scale", scale);  // only when given: the unscaled schema is unchanged
  json.key("results").begin_array();
  for (const Measurement& m : results) {
    json.begin_object()
        .field("method", to_string(m.spec.method))
        .field("backend", m.stats.backend)
        .field("precision", m.stats.precision)
        .field("tree_build", m.stats.tree_build)
        .field("n_targets_timed", static_cast<std::uint64_t>(m.n_targets_timed));
    if (m.spec.method == Method::Tree) {
      json.key("tree");
      write_tree_options(json, m.stats.tree);
      json.field("tolerance", m.stats.tolerance);
    }
    write_stage_times(json, m.stats.times, false);
    json.field("interactions_per_s", m.interactions_per_s)
        .field("pair_interactions", m.stats.pair_interactions)
        .field("multipole_interactions", m.stats.multipole_interactions)
        .field("near_items", m.stats.near_items)
        .field("far_items", m.stats.far_items)
        .field("near_item_max", m.stats.near_item_max)
        .field("far_item_max", m.stats.far_item_max)
        .field("device_bytes", m.stats.device_bytes)
        .field("pinned_bytes", m.stats.pinned_bytes)
        .field("peak_host_bytes", peak_host_bytes());
    write_kernel_rates(json, m);
    write_errors(json, m.errors);
    json.end();
  }
  json.end().end();
  AtomicFile file(path);
  file.write(json.str());
  file.commit();
}

void print_table(const std::vector<Measurement>& results) {
  std::printf("%-18s %-6s %-7s %-6s %9s %9s %9s %9s %9s %9s %9s %10s %8s %9s %9s %9s %9s\n", "run",
              "method", "backend", "prec", "total[s]", "tree", "multipole", "lists", "near", "far",
              "transfer", "inter/s", "GFlop/s", "u.mean", "du.mean", "u.L2", "du.L2");
  for (const auto& r : results) {
    const StageTimes& t = r.stats.times;
    const FieldErrors& e = r.errors;
    std::printf(
        "%-18s %-6s %-7s %-6s %9.3e %9.3e %9.3e %9.3e %9.3e %9.3e %9.3e %10.3e %8.2f %9.2e %9.2e "
        "%9.2e %9.2e\n",
        r.spec.label.c_str(), to_string(r.spec.method).c_str(), r.stats.backend.c_str(),
        r.stats.precision.c_str(), t.total, t.tree, t.multipole, t.lists, t.near, t.far, t.transfer,
        r.interactions_per_s, r.pair_gflops, e.velocity_mean_rel,
        e.has_gradient ? e.gradient_mean_rel : 0.0, e.velocity_rel_l2,
        e.has_gradient ? e.gradient_rel_l2 : 0.0);
  }
  for (const auto& r : results) {
    const std::string tree = describe_tree_choice(r.stats);
    if (!tree.empty()) std::printf("%s: %s\n", r.spec.label.c_str(), tree.c_str());
    if (!r.stats.far_field.empty())
      std::printf("%s: %s\n", r.spec.label.c_str(), describe_far_field(r.stats).c_str());
    const std::string balance = describe_plan_balance(r.stats);
    if (!balance.empty()) std::printf("%s: %s\n", r.spec.label.c_str(), balance.c_str());
    if (r.stats.device_fp32_peak > 0)
      std::printf(
          "%s: near %.0f GFlop/s (%.1f %% of the GPU's FP32 peak, %.1f TFlop/s), M2P %.0f "
          "GFlop/s counted at order %d (%.1f %%)\n",
          r.spec.label.c_str(), r.pair_gflops, 100 * r.near_peak_fraction,
          r.stats.device_fp32_peak * 1e-12, r.far_gflops, r.stats.tree.order,
          100 * r.far_peak_fraction);
  }
}

}  // namespace

// Table mode: the case, each run's times and errors, optionally the JSON and the particles.
int run_table(const BenchSettings& s) {
  const CaseFlags& c = s.case_flags;
  const SolverOptions& base = s.base;
  const bool gradient = !c.velocity_only;
  const std::vector<RunSpec> runs = parse_runs(c.runs_text, s.precision);
  const ParticleSet particles = make_case(c.case_name, c.n, c.seed, c.scale);
  const std::string scaled = c.scale != 1 ? ", scale = " + format("%g", c.scale) : "";
  std::printf("case %s, n = %zu, seed = %llu%s, core %s, %s\n", c.case_name.c_str(),
              particles.size(), static_cast<unsigned long long>(c.seed), scaled.c_str(),
              to_string(base.core).c_str(), gradient ? "velocity and gradient" : "velocity only");
  if (!c.particles_path.empty()) {
    write_particles(c.particles_path, particles);
    std::printf("wrote %s\n", c.particles_path.c_str());
  }
  std::vector<Measurement> results;
  if (!runs.empty()) {
    std::printf("reference: double-precision CPU direct sum at %zu sampled targets\n",
                static_cast<std::size_t>(std::min<std::uint64_t>(c.sample, particles.size())));
    std::fflush(stdout);
    const Reference reference =
        make_reference(particles, c.sample, c.seed + 1, gradient, base.core, base.threads);
    for (const auto& spec : runs) {
      results.push_back(measure(spec, base, particles, gradient, c.repeat, reference));
      results.back().field = VelocityField{};
    }
    print_table(results);
  }
  if (!c.json_path.empty()) {
    write_json(c.json_path, c.case_name, particles.size(), c.seed, c.scale, base.core, results);
    std::printf("wrote %s\n", c.json_path.c_str());
  }
  return 0;
}

}  // namespace vortex::cli
