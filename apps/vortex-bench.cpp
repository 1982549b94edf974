// vortex-bench: generates a particle case, times the solver's methods and backends on it, and
// measures their errors against a double-precision direct sum on a sample of targets. With
// --report and --sweep it reproduces the founding paper's Figure 7 table and parameter studies
// into an output folder.

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app_main.hpp"
#include "bench_runs.hpp"
#include "cli.hpp"
#include "figure7.hpp"
#include "json_writer.hpp"
#include "measurement_io.hpp"
#include "particle_files.hpp"
#include "report_context.hpp"
#include "scaling.hpp"
#include "solver_cli.hpp"
#include "sweeps.hpp"
#include "tolerance_sweep.hpp"
#include "vortex/file_io.hpp"
#include "vortex/solver.hpp"

namespace {

using namespace vortex;
using namespace vortex::cli;

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
        .field("device_bytes", m.stats.device_bytes)
        .field("pinned_bytes", m.stats.pinned_bytes)
        .field("peak_host_bytes", peak_host_bytes());
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
  }
}

template <typename T>
std::vector<T> parse_number_list(const std::string& option, const std::string& text) {
  std::vector<T> values;
  for (const auto& item : split_list(text)) {
    if constexpr (std::is_same_v<T, double>) {
      values.push_back(parse_double(option, item));
    } else if constexpr (std::is_same_v<T, int>) {
      values.push_back(parse_int(option, item));
    } else {
      values.push_back(static_cast<T>(parse_uint64(option, item)));
    }
  }
  if (values.empty()) throw UsageError(option + ": empty list");
  return values;
}

std::vector<std::string> parse_sweeps(const std::string& text) {
  if (text.empty() || text == "none") return {};
  std::vector<std::string> all = parameter_sweep_names();
  all.push_back("scaling");
  if (text == "all") return all;
  all.push_back("tolerance");  // not part of "all": three cases at --tolerance-n
  std::vector<std::string> names = split_list(text);
  for (const auto& name : names) {
    if (std::find(all.begin(), all.end(), name) == all.end()) {
      throw UsageError("--sweep: unknown sweep '" + name +
                       "' (accepted: bucket, order-theta, arity, scaling, all, tolerance)");
    }
  }
  return names;
}

bool has_sweep(const std::vector<std::string>& sweeps, const char* name) {
  return std::find(sweeps.begin(), sweeps.end(), name) != sweeps.end();
}

// A double as %g writes it (std::to_string would print 1e-30 as 0.000000).
std::string format_double(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string command_line(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) text += (i ? " " : "") + std::string(argv[i]);
  return text;
}

struct ReportFlags {
  bool report = false;
  std::string sweeps, out = "vortex-report", commit, sweep_run, buckets, orders, thetas, arities,
                      scaling_ns, tolerances, tolerance_cases;
  double direct_limit = 60, scaling_budget = 120;
  std::uint64_t sweep_n = 0, scaling_max = 0, scaling_sample = 256, tolerance_n = 100000;
  int sweep_repeat = 1, tolerance_rounds = 1;
  bool no_vtp = false;

  void add_to(OptionParser& parser) {
    parser.add_flag("--report",
                    "run the paper's Figure 7 table (CPU direct, CPU treecode, and GPU direct and "
                    "treecode where a GPU is present) on the case; writes report.txt, report.csv, "
                    "report.json and particles.vtp into --out. --n defaults to 100000, or "
                    "500000 with a GPU; --repeat to 3; --runs (if given) replaces the four methods",
                    report);
    parser.add("--sweep", "LIST",
               "parameter sweeps of the treecode into --out: bucket (target, source and both "
               "bucket sizes), order-theta (p x theta, error against time, Pareto front), arity "
               "(2/4/8), scaling (time against N with the direct sum and fitted exponents), all; "
               "and tolerance (not in all: the solver's --tolerance pick against the measured "
               "error and time, on each of --tolerance-cases)",
               sweeps, "none");
    parser.add("--out", "DIR", "output folder of --report and --sweep (created)", out);
    parser.add("--direct-limit", "S",
               "report: a direct sum estimated slower than S seconds over all N is timed at the "
               "--sample targets (on a GPU at 65536 targets, to fill it) and extrapolated to N",
               direct_limit);
    parser.add_flag("--no-vtp", "report: do not write particles.vtp", no_vtp);
    parser.add("--commit", "TEXT", "code version recorded in the result files", commit, "unknown");
    parser.add("--sweep-n", "N", "particles of the bucket, order-theta and arity sweeps", sweep_n,
               "20000, or 500000 with a GPU");
    parser.add("--sweep-run", "RUN", "the treecode run swept, BACKEND-tree[-PRECISION]", sweep_run,
               "cuda-tree with a GPU, else cpu-tree");
    parser.add("--sweep-repeat", "K", "timed calls per sweep point (median)", sweep_repeat);
    parser.add("--buckets", "LIST", "bucket sizes of the bucket sweep", buckets,
               "16,32,64,128,256,512");
    parser.add("--orders", "LIST", "multipole orders of the order-theta sweep", orders,
               "3,4,5,6,7,8,9,10");
    parser.add("--thetas", "LIST", "theta values of the order-theta sweep", thetas,
               "0.3,0.4,0.5,0.6,0.7,0.8");
    parser.add("--arities", "LIST", "arities of the arity sweep", arities, "2,4,8");
    parser.add("--scaling-n", "LIST",
               "sizes of the scaling sweep (all run); default 1e4, 2e4, 5e4, 1e5, ... up to "
               "--scaling-max while the budget lasts",
               scaling_ns, "auto");
    parser.add("--scaling-max", "N", "largest N of the scaling sweep", scaling_max,
               "1000000, or 10000000 with a GPU");
    parser.add("--scaling-budget", "S",
               "seconds for the scaling sweep: no larger N once its predicted time would exceed "
               "them",
               scaling_budget);
    parser.add("--scaling-sample", "S",
               "targets of the scaling sweep's error reference and sampled direct sums",
               scaling_sample);
    parser.add("--tolerances", "LIST", "tolerances of the tolerance sweep", tolerances,
               "1e-3,2e-4,1e-5,1e-6");
    parser.add("--tolerance-cases", "LIST", "cases of the tolerance sweep", tolerance_cases,
               "cube,plummer,sheet");
    parser.add("--tolerance-n", "N", "particles of each case of the tolerance sweep", tolerance_n);
    parser.add("--tolerance-rounds", "R",
               "passes over all points of the tolerance sweep (alternated; median time)",
               tolerance_rounds);
  }
};

int report_main(const ReportFlags& flags, const OptionParser& parser, ReportContext context,
                std::uint64_t n, const std::string& runs_text, Precision precision) {
  const bool gpu = cuda_available();
  const std::vector<std::string> sweeps = parse_sweeps(flags.sweeps);
  make_directories(flags.out);
  context.out_dir = flags.out;
  if (!parser.given("--repeat")) context.repeat = 3;
  std::printf("vortex-bench: output folder %s\n", flags.out.c_str());
  if (flags.report) {
    Figure7Options options;
    options.n = parser.given("--n") ? n : (gpu ? 500000 : 100000);
    if (parser.given("--runs")) options.runs = parse_runs(runs_text, precision);
    options.direct_limit_s = flags.direct_limit;
    options.write_vtp = !flags.no_vtp;
    run_figure7(context, options);
  }
  if (sweeps.empty()) return 0;
  RunSpec run = flags.sweep_run.empty() ? make_run(gpu ? Backend::Cuda : Backend::Cpu, Method::Tree)
                                        : parse_runs(flags.sweep_run, precision).at(0);
  if (run.method != Method::Tree) throw UsageError("--sweep-run: the sweeps need a tree run");
  ReportContext sweep_context = context;
  sweep_context.repeat = std::max(flags.sweep_repeat, 1);
  SweepOptions options;
  options.n = flags.sweep_n ? flags.sweep_n : (gpu ? 500000 : 20000);
  options.run = run;
  if (!flags.buckets.empty()) options.buckets = parse_number_list<int>("--buckets", flags.buckets);
  if (!flags.orders.empty()) options.orders = parse_number_list<int>("--orders", flags.orders);
  if (!flags.thetas.empty()) options.thetas = parse_number_list<double>("--thetas", flags.thetas);
  if (!flags.arities.empty()) {
    options.arities = parse_number_list<int>("--arities", flags.arities);
  }
  run_parameter_sweeps(sweep_context, options, sweeps);
  if (has_sweep(sweeps, "tolerance")) {
    ToleranceSweepOptions tolerance;
    tolerance.n = flags.tolerance_n;
    tolerance.run = run;
    if (!flags.tolerances.empty())
      tolerance.tolerances = parse_number_list<double>("--tolerances", flags.tolerances);
    if (!flags.tolerance_cases.empty()) tolerance.cases = split_list(flags.tolerance_cases);
    tolerance.rounds = std::max(flags.tolerance_rounds, 1);
    ReportContext tolerance_context = sweep_context;
    tolerance_context.repeat = context.repeat;
    run_tolerance_sweep(tolerance_context, tolerance);
  }
  if (has_sweep(sweeps, "scaling")) {
    ScalingOptions scaling;
    scaling.run = run;
    if (!flags.scaling_ns.empty() && flags.scaling_ns != "auto") {
      scaling.ns = parse_number_list<std::size_t>("--scaling-n", flags.scaling_ns);
    }
    scaling.max_n = flags.scaling_max ? flags.scaling_max : (gpu ? 10000000 : 1000000);
    scaling.budget_s = flags.scaling_budget;
    scaling.sample = std::max<std::uint64_t>(flags.scaling_sample, 1);
    run_scaling(sweep_context, scaling);
  }
  return 0;
}

constexpr const char* kDescription =
    "Generates a particle case, evaluates the velocity and its gradient at every particle with\n"
    "each requested method and backend, and prints a table of stage times, interactions per\n"
    "second, pair-kernel GFlop/s (pair flops over the near-field or direct time) and errors.\n"
    "Errors are against a double-precision CPU direct sum on a random sample of targets:\n"
    "mean relative error and global relative L2, for the velocity (u) and the gradient (du).\n"
    "Cases: cube = the paper's benchmark (uniform in the unit cube, sigma = n^(-1/3), random\n"
    "Gamma with |Gamma| <= 1.5 sigma^2); plummer = a Plummer sphere of scale radius 1 with "
    "sigma\n"
    "from the local spacing; ring = a vortex ring of radius 1, core radius 0.1 and circulation\n"
    "1 with about n particles (it uses no random draws); sheet = a thin disc of radius 1 and\n"
    "thickness 0.01 with in-plane vorticity (a shear layer); two-scale = half the particles\n"
    "in the unit cube, half in the cube [0.3, 0.4)^3 with sigma 10 times smaller (each half's\n"
    "spacing); ellipsoid = a closed sheet on the 1 x 1 x 0.1 ellipsoid's surface, uniform in\n"
    "area, sigma = 1.5 times the spacing, Gamma tangent to it. --scale S multiplies every\n"
    "position and sigma of the case by S (the strengths unchanged), the reference included.\n"
    "\n"
    "Report mode (--report, --sweep) reproduces the founding paper's Figure 7 table and its\n"
    "parameter studies into --out DIR as .txt, .csv and .json (plus particles.vtp); plot them\n"
    "with scripts/plot-report.sh DIR (gnuplot). The tree options below are the base of every\n"
    "sweep. Example: vortex-bench --report --sweep all --out out";

// The case and the runs of the table mode (the base of report mode too).
struct CaseFlags {
  std::string case_name = "cube", runs_text = "auto", precision_text = "auto", json_path,
              particles_path;
  std::uint64_t n = 100000, seed = 1, sample = 1000;
  double scale = 1;
  int repeat = 1;
  bool velocity_only = false;

  void add_to(OptionParser& parser) {
    parser.add("--case", "cube|plummer|ring|sheet|two-scale|ellipsoid", "particle case", case_name);
    parser.add("--n", "N", "number of particles", n);
    parser.add("--scale", "S",
               "multiply every position and sigma of the case by S (finite, > 0; the strengths "
               "unchanged); table mode only",
               scale);
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
  }
};

ReportContext report_context(const CaseFlags& c, const ReportFlags& report,
                             const SolverOptions& base, const std::string& command) {
  ReportContext context;
  context.case_name = c.case_name;
  context.seed = c.seed;
  context.sample = c.sample;
  context.repeat = c.repeat;
  context.gradient = !c.velocity_only;
  context.base = base;
  context.command = command;
  context.commit = report.commit;
  context.machine = MachineInfo::current();
  return context;
}

// Table mode: the case, each run's times and errors, optionally the JSON and the particles.
int table_main(const CaseFlags& c, const SolverOptions& base, Precision precision) {
  const bool gradient = !c.velocity_only;
  const std::vector<RunSpec> runs = parse_runs(c.runs_text, precision);
  const ParticleSet particles = make_case(c.case_name, c.n, c.seed, c.scale);
  const std::string scaled = c.scale != 1 ? ", scale = " + format_double(c.scale) : "";
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

int bench_main(int argc, char** argv) {
  CaseFlags flags;
  SolverCli solver_cli;
  ReportFlags report;
  OptionParser parser("vortex-bench", "[options]", kDescription);
  flags.add_to(parser);
  report.add_to(parser);
  solver_cli.add_to(parser, /*with_method_backend_precision=*/false);
  if (!parser.parse(argc, argv)) return 0;

  if (flags.repeat < 1) throw UsageError("--repeat must be at least 1");
  if (!(flags.scale > 0) || !std::isfinite(flags.scale)) {
    throw UsageError("--scale must be finite and positive, got " + format_double(flags.scale));
  }
  if (!flags.particles_path.empty()) file_format(flags.particles_path, "--write-particles");
  const SolverOptions base = solver_cli.options();
  const Precision precision = parse_precision(flags.precision_text);
  if (report.report || (!report.sweeps.empty() && report.sweeps != "none")) {
    if (flags.scale != 1)
      throw UsageError("--scale applies to the table mode, not --report/--sweep");
    return report_main(report, parser,
                       report_context(flags, report, base, command_line(argc, argv)), flags.n,
                       flags.runs_text, precision);
  }
  return table_main(flags, base, precision);
}

}  // namespace

int main(int argc, char** argv) {
  return vortex::cli::run_app("vortex-bench", argc, argv, bench_main);
}
