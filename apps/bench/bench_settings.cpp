#include "bench_settings.hpp"

#include <cmath>

#include "cli.hpp"
#include "particle_files.hpp"
#include "solver_cli.hpp"
#include "tables.hpp"

namespace vortex::cli {

namespace {

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

void add_case_options(OptionParser& parser, CaseFlags& c) {
  parser.add("--case", "cube|plummer|ring|sheet|two-scale|ellipsoid", "particle case", c.case_name);
  parser.add("--n", "N", "number of particles", c.n);
  parser.add("--scale", "S",
             "multiply every position and sigma of the case by S (finite, > 0; the strengths "
             "unchanged); table mode only",
             c.scale);
  parser.add("--seed", "S", "seed of the case's random draws; the target sample uses S+1", c.seed);
  parser.add("--runs", "LIST",
             "comma-separated runs, each BACKEND-METHOD[-PRECISION] with BACKEND auto|cpu|cuda, "
             "METHOD direct|tree, PRECISION auto|double|float (else --precision), e.g. "
             "cpu-direct,cpu-tree,cuda-direct,cuda-tree-float; 'auto' = cpu-tree, plus "
             "cuda-direct,cuda-tree when a GPU is present; 'none' only generates the case",
             c.runs_text);
  parser.add("--precision", "auto|double|float", "precision of runs that do not name one",
             c.precision_text);
  parser.add("--repeat", "K",
             "timed calls per run; the call with the median total time is reported (GPU runs "
             "make one untimed warm-up call first)",
             c.repeat);
  parser.add("--sample", "S", "targets compared with the direct sum (all when S >= n)", c.sample);
  parser.add_flag("--velocity-only", "skip the gradient (its errors are then null in the JSON)",
                  c.velocity_only);
  parser.add("--json", "FILE", "also write the results as JSON", c.json_path);
  parser.add("--write-particles", "FILE", "also write the generated case (.csv or .vtp)",
             c.particles_path);
}

void add_report_options(OptionParser& parser, ReportFlags& r) {
  parser.add_flag("--report",
                  "run the paper's Figure 7 table (CPU direct, CPU treecode, and GPU direct and "
                  "treecode where a GPU is present) on the case; writes report.txt, report.csv, "
                  "report.json and particles.vtp into --out. --n defaults to 100000, or "
                  "500000 with a GPU; --repeat to 3; --runs (if given) replaces the four methods",
                  r.report);
  parser.add("--sweep", "LIST",
             "parameter sweeps of the treecode into --out: bucket (target, source and both "
             "bucket sizes), order-theta (p x theta, error against time, Pareto front), arity "
             "(2/4/8), scaling (time against N with the direct sum and fitted exponents), all; "
             "and tolerance (not in all: the solver's --tolerance pick against the measured "
             "error and time, on each of --tolerance-cases)",
             r.sweeps, "none");
  parser.add("--out", "DIR", "output folder of --report and --sweep (created)", r.out);
  parser.add("--direct-limit", "S",
             "report: a direct sum estimated slower than S seconds over all N is timed at the "
             "--sample targets (on a GPU at 65536 targets, to fill it) and extrapolated to N",
             r.direct_limit);
  parser.add_flag("--no-vtp", "report: do not write particles.vtp", r.no_vtp);
  parser.add("--commit", "TEXT", "code version recorded in the result files", r.commit, "unknown");
  parser.add("--sweep-n", "N", "particles of the bucket, order-theta and arity sweeps", r.sweep_n,
             "20000, or 500000 with a GPU");
  parser.add("--sweep-run", "RUN", "the treecode run swept, BACKEND-tree[-PRECISION]", r.sweep_run,
             "cuda-tree with a GPU, else cpu-tree");
  parser.add("--sweep-repeat", "K", "timed calls per sweep point (median)", r.sweep_repeat);
  parser.add("--buckets", "LIST", "bucket sizes of the bucket sweep", r.buckets,
             "16,32,64,128,256,512");
  parser.add("--orders", "LIST", "multipole orders of the order-theta sweep", r.orders,
             "3,4,5,6,7,8,9,10");
  parser.add("--thetas", "LIST", "theta values of the order-theta sweep", r.thetas,
             "0.3,0.4,0.5,0.6,0.7,0.8");
  parser.add("--arities", "LIST", "arities of the arity sweep", r.arities, "2,4,8");
  parser.add("--scaling-n", "LIST",
             "sizes of the scaling sweep (all run); default 1e4, 2e4, 5e4, 1e5, ... up to "
             "--scaling-max while the budget lasts",
             r.scaling_ns, "auto");
  parser.add("--scaling-max", "N", "largest N of the scaling sweep", r.scaling_max,
             "1000000, or 10000000 with a GPU");
  parser.add("--scaling-budget", "S",
             "seconds for the scaling sweep: no larger N once its predicted time would exceed "
             "them",
             r.scaling_budget);
  parser.add("--scaling-sample", "S",
             "targets of the scaling sweep's error reference and sampled direct sums",
             r.scaling_sample);
  parser.add("--tolerances", "LIST", "tolerances of the tolerance sweep", r.tolerances,
             "1e-3,2e-4,1e-5,1e-6");
  parser.add("--tolerance-cases", "LIST", "cases of the tolerance sweep", r.tolerance_cases,
             "cube,plummer,sheet");
  parser.add("--tolerance-n", "N", "particles of each case of the tolerance sweep", r.tolerance_n);
  parser.add("--tolerance-rounds", "R",
             "passes over all points of the tolerance sweep (alternated; median time)",
             r.tolerance_rounds);
}

std::string command_line(int argc, char** argv) {
  std::string text;
  for (int i = 0; i < argc; ++i) text += (i ? " " : "") + std::string(argv[i]);
  return text;
}

}  // namespace

bool BenchSettings::report_mode() const {
  return report.report || (!report.sweeps.empty() && report.sweeps != "none");
}

bool parse_settings(int argc, char** argv, BenchSettings& s) {
  CaseFlags& c = s.case_flags;
  SolverCli solver_cli;
  OptionParser parser("vortex-bench", "[options]", kDescription);
  add_case_options(parser, c);
  add_report_options(parser, s.report);
  solver_cli.add_to(parser, /*with_method_backend_precision=*/false);
  if (!parser.parse(argc, argv)) return false;
  c.n_given = parser.given("--n");
  c.runs_given = parser.given("--runs");
  c.repeat_given = parser.given("--repeat");
  s.command = command_line(argc, argv);

  if (c.repeat < 1) throw UsageError("--repeat must be at least 1");
  if (!(c.scale > 0) || !std::isfinite(c.scale))
    throw UsageError("--scale must be finite and positive, got " + format("%g", c.scale));
  if (!c.particles_path.empty()) file_format(c.particles_path, "--write-particles");
  s.base = solver_cli.options();
  s.precision = parse_precision(c.precision_text);
  if (s.report_mode() && c.scale != 1)
    throw UsageError("--scale applies to the table mode, not --report/--sweep");
  return true;
}

}  // namespace vortex::cli
