// vortex-bench: generates a particle case, times the solver's methods and backends on it, and
// measures their errors against a double-precision direct sum on a sample of targets.

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "app_main.hpp"
#include "cli.hpp"
#include "particle_files.hpp"
#include "solver_cli.hpp"
#include "vortex/biot_savart.hpp"
#include "vortex/error_metrics.hpp"
#include "vortex/file_io.hpp"
#include "vortex/generators.hpp"
#include "vortex/solver.hpp"

namespace {

using namespace vortex;

// One entry of --runs: BACKEND-METHOD[-PRECISION].
struct RunSpec {
  std::string label;
  Backend backend = Backend::Auto;
  Method method = Method::Tree;
  Precision precision = Precision::Auto;
};

struct RunResult {
  RunSpec spec;
  EvaluationStats stats;  // of the call with the median total time
  std::size_t n_targets = 0;
  double interactions_per_s = 0;
  double pair_gflops = 0;  // pair-kernel flops over the near-field (or direct) time
  FieldErrors errors;
};

std::vector<RunSpec> parse_runs(const std::string& text, Precision default_precision) {
  if (text == "none") return {};
  std::vector<std::string> items = cli::split_list(text);
  if (text == "auto") {
    items = {"cpu-tree"};
    if (cuda_available()) items = {"cpu-tree", "cuda-direct", "cuda-tree"};
  }
  if (items.empty()) throw cli::UsageError("--runs: empty list (see --help)");
  std::vector<RunSpec> runs;
  for (const auto& item : items) {
    const auto parts = cli::split_list(item, '-');
    if (parts.size() < 2 || parts.size() > 3) {
      throw cli::UsageError(
          "--runs: '" + item +
          "' is not BACKEND-METHOD[-PRECISION], e.g. cpu-tree or cuda-direct-float");
    }
    RunSpec run;
    run.label = item;
    try {
      run.backend = parse_backend(parts[0]);
      run.method = parse_method(parts[1]);
      run.precision = parts.size() == 3 ? parse_precision(parts[2]) : default_precision;
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError("--runs: '" + item + "': " + e.what());
    }
    runs.push_back(run);
  }
  return runs;
}

ParticleSet make_case(const std::string& name, std::size_t n, std::uint64_t seed) {
  if (n == 0) throw cli::UsageError("--n must be at least 1");
  if (name == "cube") return random_cube(n, seed);
  if (name == "plummer") return plummer_sphere(n, seed);
  if (name == "ring") return vortex_ring(ring_options_for_count(n));
  throw cli::UsageError("--case: unknown case '" + name + "' (accepted: cube, plummer, ring)");
}

double median_call(std::vector<EvaluationStats>& calls, EvaluationStats& chosen) {
  std::sort(calls.begin(), calls.end(), [](const EvaluationStats& a, const EvaluationStats& b) {
    return a.times.total < b.times.total;
  });
  chosen = calls[(calls.size() - 1) / 2];
  return chosen.times.total;
}

RunResult run_one(const RunSpec& spec, const SolverOptions& base, const ParticleSet& particles,
                  bool gradient, int repeat, const std::vector<std::size_t>& sample,
                  const VelocityField& reference) {
  SolverOptions options = base;
  options.method = spec.method;
  options.backend = spec.backend;
  options.precision = spec.precision;
  validate_options(options);
  Solver solver(options);

  // GPU timings exclude start-up costs (context creation, first allocations): one untimed call.
  if (resolve_backend(spec.backend) == Backend::Cuda) solver.evaluate(particles, gradient);
  std::vector<EvaluationStats> calls;
  VelocityField field;
  for (int k = 0; k < repeat; ++k) {
    const auto start = std::chrono::steady_clock::now();
    field = solver.evaluate(particles, gradient);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!(field.stats.times.total > 0)) field.stats.times.total = wall;
    calls.push_back(field.stats);
  }

  RunResult result;
  result.spec = spec;
  const double total = median_call(calls, result.stats);
  result.n_targets = particles.size();
  const auto& s = result.stats;
  double interactions = static_cast<double>(s.pair_interactions + s.multipole_interactions);
  if (interactions == 0 && spec.method == Method::Direct) {
    interactions = static_cast<double>(particles.size()) * static_cast<double>(particles.size());
  }
  result.interactions_per_s = total > 0 ? interactions / total : 0;
  const double pair_time = s.times.near > 0 ? s.times.near : total;
  const int flops = gradient ? kFlopsVelocityGradientPair : kFlopsVelocityPair;
  result.pair_gflops =
      pair_time > 0 ? static_cast<double>(s.pair_interactions) * flops / pair_time * 1e-9 : 0;
  result.errors = compare_fields(field, reference, sample);
  return result;
}

std::string json_number(double value) {
  char buffer[32];
  const auto end =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 17).ptr;
  return std::string(buffer, end);
}

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void write_json(const std::string& path, const std::string& case_name, std::size_t n,
                std::uint64_t seed, Core core, const std::vector<RunResult>& results) {
  std::string json = "{\n  \"case\": " + json_string(case_name) +
                     ",\n  \"n\": " + std::to_string(n) + ",\n  \"seed\": " + std::to_string(seed) +
                     ",\n  \"core\": " + json_string(to_string(core)) + ",\n  \"results\": [";
  for (std::size_t r = 0; r < results.size(); ++r) {
    const RunResult& res = results[r];
    const StageTimes& t = res.stats.times;
    const FieldErrors& e = res.errors;
    // Without a gradient there is no gradient error: null, not a misleading 0.
    const std::string gradient_mean = e.has_gradient ? json_number(e.gradient_mean_rel) : "null";
    const std::string gradient_l2 = e.has_gradient ? json_number(e.gradient_rel_l2) : "null";
    json += std::string(r ? "," : "") +
            "\n    {\"method\": " + json_string(to_string(res.spec.method)) +
            ", \"backend\": " + json_string(res.stats.backend) +
            ", \"precision\": " + json_string(res.stats.precision) +
            ", \"n_targets_timed\": " + std::to_string(res.n_targets) +
            ",\n     \"times\": {\"total\": " + json_number(t.total) +
            ", \"tree\": " + json_number(t.tree) + ", \"multipole\": " + json_number(t.multipole) +
            ", \"lists\": " + json_number(t.lists) + ", \"near\": " + json_number(t.near) +
            ", \"far\": " + json_number(t.far) + ", \"transfer\": " + json_number(t.transfer) +
            "},\n     \"interactions_per_s\": " + json_number(res.interactions_per_s) +
            ",\n     \"error\": {\"velocity_mean_rel\": " + json_number(e.velocity_mean_rel) +
            ", \"gradient_mean_rel\": " + gradient_mean +
            ", \"velocity_rel_l2\": " + json_number(e.velocity_rel_l2) +
            ", \"gradient_rel_l2\": " + gradient_l2 +
            ", \"n_sampled\": " + std::to_string(e.n_sampled) + "}}";
  }
  json += "\n  ]\n}\n";
  AtomicFile file(path);
  file.write(json);
  file.commit();
}

void print_table(const std::vector<RunResult>& results) {
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
}

int bench_main(int argc, char** argv) {
  std::string case_name = "cube", runs_text = "auto", precision_text = "auto", json_path,
              particles_path;
  std::uint64_t n = 100000, seed = 1, sample = 1000;
  int repeat = 1;
  bool velocity_only = false;
  cli::SolverCli solver_cli;

  cli::OptionParser parser(
      "vortex-bench", "[options]",
      "Generates a particle case, evaluates the velocity and its gradient at every particle with\n"
      "each requested method and backend, and prints a table of stage times, interactions per\n"
      "second, pair-kernel GFlop/s (pair flops over the near-field or direct time) and errors.\n"
      "Errors are against a double-precision CPU direct sum on a random sample of targets:\n"
      "mean relative error and global relative L2, for the velocity (u) and the gradient (du).\n"
      "Cases: cube = the paper's benchmark (uniform in the unit cube, sigma = n^(-1/3), random\n"
      "Gamma with |Gamma| <= 1.5 sigma^2); plummer = a Plummer sphere of scale radius 1 with "
      "sigma\n"
      "from the local spacing; ring = a vortex ring of radius 1, core radius 0.1 and circulation\n"
      "1 with about n particles (it uses no random draws).");
  parser.add("--case", "cube|plummer|ring", "particle case", case_name);
  parser.add("--n", "N", "number of particles", n);
  parser.add("--seed", "S", "seed of the case's random draws; the target sample uses S+1", seed);
  parser.add("--runs", "LIST",
             "comma-separated runs, each BACKEND-METHOD[-PRECISION] with BACKEND auto|cpu|cuda, "
             "METHOD direct|tree, PRECISION auto|double|float (else --precision), e.g. "
             "cpu-direct,cpu-tree,cuda-direct,cuda-tree-float; 'auto' = cpu-tree, plus "
             "cuda-direct,cuda-tree when a GPU is present; 'none' only generates the case",
             runs_text);
  parser.add("--precision", "auto|double|float", "precision of runs that do not name one",
             precision_text);
  parser.add("--repeat", "K",
             "timed calls per run; the call with the median total time is reported (GPU runs "
             "make one untimed warm-up call first)",
             repeat);
  parser.add("--sample", "S", "targets compared with the direct sum (all when S >= n)", sample);
  parser.add_flag("--velocity-only", "skip the gradient (its errors are then null in the JSON)",
                  velocity_only);
  parser.add("--json", "FILE", "also write the results as JSON", json_path);
  parser.add("--write-particles", "FILE", "also write the generated case (.csv or .vtp)",
             particles_path);
  solver_cli.add_to(parser, /*with_method_backend_precision=*/false);
  if (!parser.parse(argc, argv)) return 0;

  if (repeat < 1) throw cli::UsageError("--repeat must be at least 1");
  if (!particles_path.empty()) cli::file_format(particles_path, "--write-particles");
  const SolverOptions base = solver_cli.options();
  const std::vector<RunSpec> runs = parse_runs(runs_text, parse_precision(precision_text));
  const bool gradient = !velocity_only;

  const ParticleSet particles = make_case(case_name, n, seed);
  std::printf("case %s, n = %zu, seed = %llu, core %s, %s\n", case_name.c_str(), particles.size(),
              static_cast<unsigned long long>(seed), to_string(base.core).c_str(),
              gradient ? "velocity and gradient" : "velocity only");
  if (!particles_path.empty()) {
    cli::write_particles(particles_path, particles);
    std::printf("wrote %s\n", particles_path.c_str());
  }

  std::vector<RunResult> results;
  if (!runs.empty()) {
    const std::vector<std::size_t> indices = sample_indices(particles.size(), sample, seed + 1);
    const Points sampled = gather_points(particles, indices);
    std::printf("reference: double-precision CPU direct sum at %zu sampled targets\n",
                indices.size());
    std::fflush(stdout);
    const VelocityField reference =
        reference_field(particles, sampled, gradient, base.core, base.threads);
    for (const auto& spec : runs) {
      results.push_back(run_one(spec, base, particles, gradient, repeat, indices, reference));
    }
    print_table(results);
  }
  if (!json_path.empty()) {
    write_json(json_path, case_name, particles.size(), seed, base.core, results);
    std::printf("wrote %s\n", json_path.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return vortex::cli::run_app("vortex-bench", argc, argv, bench_main);
}
