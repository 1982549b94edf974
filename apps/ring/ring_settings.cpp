#include "ring_settings.hpp"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "cli.hpp"
#include "ring_case.hpp"

namespace vortex::ring_app {
namespace {

constexpr const char* kDescription =
    "Advances a vortex ring (or two coaxial rings, --second-ring) with the vortex particle\n"
    "method: Runge-Kutta steps (Heun by default, two velocity evaluations) with vortex\n"
    "stretching, and viscous diffusion by the Vorticity Redistribution Method when --re > 0.\n"
    "Measures the translation speed of the impulse centroid and compares it with the thin-ring\n"
    "theory of the particle ring (inviscid) or with Saffman's viscous formula. Writes ring.pvd "
    "+\n"
    "ring_*.vtp, diagnostics.csv, "
    "speeds.csv and ring.png into the output folder. The defaults run the inviscid check.";

// The case file's arguments first, so that the command line overrides them.
std::vector<std::string> arguments_with_case_file(int argc, char** argv) {
  std::vector<std::string> args{argv[0]};
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--case") {
      for (auto& x : case_file_arguments(argv[i + 1])) args.push_back(x);
    } else if (a.rfind("--case=", 0) == 0) {
      for (auto& x : case_file_arguments(a.substr(7))) args.push_back(x);
    }
  }
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  return args;
}

void add_ring_options(cli::OptionParser& parser, Settings& s) {
  parser.add("--radius", "R", "ring radius", s.radius);
  parser.add("--core-radius", "A", "core radius a: the cross-section disk holding the particles",
             s.core_radius);
  parser.add("--circulation", "G", "circulation of the ring", s.circulation);
  parser.add("--layers", "L", "particle layers around the core center (0: one filament)", s.layers);
  parser.add("--per-section", "N",
             "particles per cross-section, 1 + 3 L (L + 1): 1, 7, 19, 37, 61, ... (sets --layers)",
             s.per_section, "from --layers");
  parser.add("--stations", "S", "cross-sections around the ring; 0: spacing as in the core",
             s.stations);
  parser.add("--gaussian-width", "W", "Gaussian vorticity exp(-(r/(W a))^2) over the core",
             s.gaussian_width);
  parser.add("--overlap", "F", "particle core radius sigma = F * spacing", s.overlap);
  parser.add_flag("--second-ring", "add a second, coaxial ring behind the first (leapfrogging)",
                  s.second_ring);
  parser.add("--separation", "D", "axial distance of the second ring behind the first",
             s.separation);
  parser.add("--second-radius", "R2", "radius of the second ring; 0: same as the first",
             s.second_radius);
}

void add_physics_options(cli::OptionParser& parser, Settings& s) {
  parser.add("--re", "RE", "Reynolds number circulation / nu; 0: inviscid", s.re);
  parser.add("--nu", "NU", "kinematic viscosity (overrides --re)", s.nu);
  parser.add("--dt", "DT", "time step", s.dt);
  parser.add("--steps", "N", "number of steps", s.steps);
  parser.add("--scheme", "NAME", "time scheme: euler, heun, midpoint, rk3, rk4", s.scheme);
  parser.add("--stretching", "NAME", "vortex stretching: transpose, classical, none", s.stretching);
  parser.add("--relaxation", "F",
             "turn each particle's strength by this fraction toward the field's vorticity at the "
             "start of every step (0: none)",
             s.relaxation);
  parser.add("--relaxation-rate", "R",
             "the same at a rate per unit time: the fraction R dt each step (0: none)",
             s.relaxation_rate);
  parser.add("--diffusion", "NAME", "viscous scheme: vrm or pse (used when viscous)", s.diffusion);
  parser.add("--spacing", "H", "diffusion lattice spacing; 0: the ring's particle spacing",
             s.spacing);
  parser.add("--remove-threshold", "E",
             "remove particles with |Gamma| below E times the largest (viscous runs)",
             s.remove_threshold);
  parser.add("--insert-threshold", "E",
             "VRM inserts particles only around particles with |Gamma| above E times the largest; "
             "0: where a new particle's share (about nu dt / h^2 of it) would outlive "
             "--remove-threshold",
             s.insert_threshold, "0");
  parser.add("--merge-distance", "M",
             "merge particles closer than M * spacing (viscous runs, or when given); 0: never",
             s.merge_distance);
  parser.add("--max-particles", "N", "keep at most N particles (removing the weakest); 0: no bound",
             s.max_particles);
}

void add_output_options(cli::OptionParser& parser, Settings& s) {
  parser.add("--skip", "F", "fraction of the run left out of the speed fit (start-up)", s.skip);
  parser.add("--windows", "W", "windows of the speed-versus-time comparison", s.windows);
  parser.add("-o,--output", "DIR", "output folder", s.output);
  parser.add("--every", "K", "write a .vtp every K steps (about 20 files by default); 0: none",
             s.every, "steps/20");
  parser.add("--json", "FILE", "write the summary as JSON", s.json);
  parser.add("--progress", "SECONDS", "progress line interval; 0: none", s.progress);
  parser.add_flag("--no-plot", "do not draw ring.png", s.no_plot);
  parser.add_flag("-q,--quiet", "print only the summary", s.quiet);
  parser.add_flag("--blob",
                  "diffusion check instead of a ring: a Gaussian blob on the lattice --spacing "
                  "(default 1), no advection, --diffusion vrm|pse, --nu (default 1), dt from "
                  "h^2 = 8 nu dt unless given, --steps (default 40)",
                  s.blob);
  parser.add("--blob-width", "S", "standard deviation of the blob, in lattice spacings",
             s.blob_width);
}

int layers_for_section(int per_section) {
  for (int layers = 0; layers <= 20; ++layers)
    if (1 + 3 * layers * (layers + 1) == per_section) return layers;
  throw cli::UsageError("--per-section: " + std::to_string(per_section) +
                        " is not 1 + 3 L (L + 1) (1, 7, 19, 37, 61, 91, ...)");
}

}  // namespace

bool parse_settings(int argc, char** argv, Settings& s) {
  std::vector<std::string> args = arguments_with_case_file(argc, argv);
  std::vector<char*> arg_ptrs;
  for (auto& a : args) arg_ptrs.push_back(a.data());
  std::string case_file;  // read above; registered for --help and the parser's checks
  cli::OptionParser parser("vortex-ring", "[options]", kDescription);
  parser.add("--case", "FILE", "JSON case file (keys: these option names without dashes)",
             case_file, "none");
  add_ring_options(parser, s);
  add_physics_options(parser, s);
  add_output_options(parser, s);
  s.solver.add_to(parser);
  if (!parser.parse(static_cast<int>(arg_ptrs.size()), arg_ptrs.data())) return false;
  s.dt_given = parser.given("--dt");
  s.steps_given = parser.given("--steps");
  s.merge_distance_given = parser.given("--merge-distance");
  return true;
}

RunPlan plan_run(Settings& s) {
  if (s.per_section > 0) s.layers = layers_for_section(s.per_section);
  if (s.steps < 1) throw cli::UsageError("--steps must be at least 1");
  if (!(s.dt > 0)) throw cli::UsageError("--dt must be positive");
  if (!(s.skip >= 0 && s.skip < 1)) throw cli::UsageError("--skip must be in [0, 1)");
  RunPlan plan;
  plan.solver = s.solver.options();
  if (plan.solver.core == Core::Singular)
    throw cli::UsageError("--core singular: a ring of singular particles has no finite speed");
  if (plan.solver.threads > 0) omp_set_num_threads(plan.solver.threads);
  plan.scheme = parse_time_scheme(s.scheme);
  plan.stretching = parse_stretching(s.stretching);
  check_relaxation(s.relaxation, s.relaxation_rate, "--relaxation", "--relaxation-rate", s.dt,
                   "--dt");
  plan.relaxation = s.relaxation;
  plan.relaxation_rate = s.relaxation_rate;
  plan.nu = viscosity(s);
  plan.viscous = plan.nu > 0;
  if (plan.viscous && s.diffusion != "vrm" && s.diffusion != "pse")
    throw cli::UsageError("--diffusion: '" + s.diffusion + "' (accepted: vrm, pse)");
  plan.every = s.every >= 0 ? s.every : std::max(1, s.steps / 20);
  return plan;
}

double viscosity(const Settings& s) {
  if (s.nu > 0) return s.nu;
  return s.re > 0 ? s.circulation / s.re : 0.0;
}

RingOptions ring_options(const Settings& s) {
  RingOptions o;
  o.radius = s.radius;
  o.core_radius = s.core_radius;
  o.circulation = s.circulation;
  o.gaussian_width = s.gaussian_width;
  o.overlap = s.overlap;
  o.layers = s.layers;
  o.stations = s.stations;
  return o;
}

}  // namespace vortex::ring_app
