#include "ring_settings.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "case_file.hpp"
#include "cli.hpp"
#include "memory_check.hpp"
#include "option_range.hpp"
#include "toolkit_cli.hpp"

namespace vortex::ring_app {
namespace {

constexpr const char* kDescription =
    "Advances a vortex ring (or two coaxial rings, --second-ring) with the vortex particle\n"
    "method: Runge-Kutta steps (Heun by default, two velocity evaluations) with vortex\n"
    "stretching, and viscous diffusion by the Vorticity Redistribution Method when --re > 0.\n"
    "Measures the translation speed of the impulse centroid and compares it with the thin-ring\n"
    "theory of the particle ring (inviscid) or with Saffman's viscous formula. Particles are\n"
    "removed and merged (--remove-threshold, --merge-distance) after every viscous step, and in\n"
    "inviscid runs only with --merge-distance or --max-particles. Writes ring.pvd "
    "+\n"
    "ring_*.vtp, diagnostics.csv, "
    "speeds.csv and ring.png into the output folder. The defaults run the inviscid check.";

using cli::number_text;
using cli::Range;
using cli::range_text;
using cli::short_text;

constexpr cli::RangeCheck<cli::UsageError> require;
using cli::SharedOption;
using cli::valid;

// Lengths, circulations and viscosities are of order one in the app's units: these bounds keep
// products such as G / nu, nu dt / h^2 and their squares far inside double precision.
constexpr Range kScale{1e-6, 1e6};
constexpr Range kCoreRadius{1e-4, 0.5};     // of --radius: a ring, not a disk or a line
constexpr Range kLayers{0, 1000};           // beyond, 3e6 particles per cross-section
constexpr Range kStations{3, 1e7};          // or 0
constexpr Range kGaussianWidth{0.05, 10};   // of a: narrower is one filament, wider is uniform
constexpr Range kOverlap{0.5, 5};           // sigma / h: cores that neither miss nor smear
constexpr Range kSeparation{0, 100, true};  // of --radius
constexpr Range kSecondRadius{2, 10};       // from 2 a to 10 R, or 0
constexpr Range kRe{0, 1e7, true};          // or 0
constexpr Range kMaxRe{0, 1e7, true};       // circulation / nu with --nu
// nu dt / h^2: the VRM's neighbourhoods grow as its 3/2 power, and PSE's explicit step is unstable
// well beyond 1.
constexpr Range kDiffusionNumber{0, 1, true};
constexpr Range kBlobDiffusionNumber{1e-6, 1};  // less shows no growth to measure
constexpr Range kDt{1e-6, 10};                  // of the core's time a^2 / G
constexpr Range kSteps{1, 1e7};
constexpr Range kSpacing{0.1, 4};  // of the ring's particle spacing, or 0
constexpr Range kInsertThreshold{0, 0.1};
constexpr Range kMaxParticles{0, 2147483647};
constexpr Range kSkip{0, 1, false, true};
constexpr Range kWindows{1, 1000};
// Host bytes per particle of a ring or blob run, as ring_setup.cpp counts them.
constexpr long double kBytesPerParticle = 1000;
constexpr Range kBlobWidth{1, 20};  // lattice spacings: resolved, and at most about 2e6 particles

void add_ring_options(cli::OptionParser& parser, Settings& s) {
  parser.add("--radius", "R", "ring radius" + valid(kScale), s.ring.radius);
  parser.add("--core-radius", "A",
             "core radius a: the cross-section disk holding the particles" +
                 valid(kCoreRadius, " times --radius"),
             s.ring.core_radius);
  parser.add("--circulation", "G", "circulation of the ring" + valid(kScale), s.ring.circulation);
  parser.add("--layers", "L",
             "particle layers around the core center (0: one filament)" + valid(kLayers),
             s.ring.layers);
  parser.add("--per-section", "N",
             "particles per cross-section, 1 + 3 L (L + 1): 1, 7, 19, 37, 61, ... up to L = 20 "
             "(sets --layers)",
             s.per_section, "from --layers");
  parser.add(
      "--stations", "S",
      "cross-sections around the ring; 0: spacing as in the core" + valid(kStations, "", true),
      s.ring.stations);
  parser.add("--gaussian-width", "W",
             "Gaussian vorticity exp(-(r/(W a))^2) over the core" + valid(kGaussianWidth),
             s.ring.gaussian_width);
  parser.add("--overlap", "F", "particle core radius sigma = F * spacing" + valid(kOverlap),
             s.ring.overlap);
  parser.add_flag("--second-ring", "add a second, coaxial ring behind the first (leapfrogging)",
                  s.second_ring);
  parser.add(
      "--separation", "D",
      "axial distance of the second ring behind the first" + valid(kSeparation, " times --radius"),
      s.separation);
  parser.add("--second-radius", "R2",
             "radius of the second ring; 0: same as the first; valid: 0 or from 2 a to 10 R",
             s.second_radius);
}

void add_physics_options(cli::OptionParser& parser, Settings& s) {
  parser.add("--re", "RE", "Reynolds number circulation / nu; 0: inviscid" + valid(kRe, "", true),
             s.re);
  parser.add("--nu", "NU",
             "kinematic viscosity (overrides --re); 0: from --re; valid: 0 or positive, with "
             "circulation / nu at most 1e7 and nu dt / h^2 at most 1",
             s.nu);
  parser.add("--dt", "DT",
             "time step" + valid(kDt, " times a^2 / circulation") + " (--blob: nu dt / h^2 in " +
                 range_text(kBlobDiffusionNumber) + ")",
             s.dt);
  parser.add("--steps", "N", "number of steps" + valid(kSteps), s.steps);
  parser.add("--scheme", "NAME", "time scheme: euler, heun, midpoint, rk3, rk4", s.scheme);
  cli::add_shared(parser, SharedOption::Stretching, s.stretching);
  cli::add_shared(parser, SharedOption::Relaxation, s.relaxation);
  cli::add_shared(parser, SharedOption::RelaxationRate, s.relaxation_rate);
  parser.add("--diffusion", "NAME", "viscous scheme: vrm or pse (used when viscous)", s.diffusion);
  parser.add("--spacing", "H",
             "diffusion lattice spacing; 0: the ring's particle spacing h = a / (L + 0.5)" +
                 valid(kSpacing, " times h", true) + " (--blob: 0 is 1; valid: 0 or " +
                 range_text(kScale) + ")",
             s.spacing);
  cli::add_shared(parser, SharedOption::RemoveThreshold, s.remove_threshold);
  parser.add("--insert-threshold", "E",
             "VRM inserts particles only around particles with |Gamma| above E times the largest; "
             "0: where a new particle's share (about nu dt / h^2 of it) would outlive "
             "--remove-threshold" +
                 valid(kInsertThreshold),
             s.insert_threshold, "0");
  cli::add_shared(parser, SharedOption::MergeDistance, s.merge_distance);
  cli::add_shared(parser, SharedOption::MergeInto, s.merge_into);
  parser.add("--max-particles", "N",
             "keep at most N particles (removing the weakest); 0: no bound; valid: >= 0",
             s.max_particles);
}

void add_output_options(cli::OptionParser& parser, Settings& s) {
  parser.add("--skip", "F",
             "fraction of the run left out of the speed fit (start-up)" + valid(kSkip), s.skip);
  parser.add("--windows", "W", "windows of the speed-versus-time comparison" + valid(kWindows),
             s.windows);
  cli::add_shared(parser, SharedOption::Output, s.output);
  cli::add_shared(parser, SharedOption::Every, s.every, "steps/20");
  cli::add_shared(parser, SharedOption::Json, s.json);
  cli::add_shared(parser, SharedOption::Progress, s.progress);
  cli::add_shared(parser, SharedOption::NoPlot, s.no_plot);
  cli::add_shared(parser, SharedOption::Quiet, s.quiet);
  parser.add_flag("--mpi",
                  "split the run over the ranks of MPI_COMM_WORLD (start it with mpiexec; a build "
                  "with MPI): the distributed solver, VRM and particle control on ranks, rank 0 "
                  "records and writes",
                  s.mpi);
  parser.add_flag("--blob",
                  "diffusion check instead of a ring: a Gaussian blob on the lattice --spacing "
                  "(default 1), no advection, --diffusion vrm|pse, --nu (default 1), dt from "
                  "h^2 = 8 nu dt unless given, --steps (default 40)",
                  s.blob);
  parser.add("--blob-width", "S",
             "standard deviation of the blob, in lattice spacings" + valid(kBlobWidth),
             s.blob_width);
}

// The blob's lattice, viscosity and time step as ring_blob.cpp takes them from the settings.
void check_blob(const Settings& s) {
  const double h = s.spacing > 0 ? s.spacing : 1, nu = s.nu > 0 ? s.nu : 1;
  if (s.spacing != 0) require("--spacing", s.spacing, kScale, "--blob: the lattice spacing, or 0");
  if (s.nu > 0) require("--nu", s.nu, kScale, "--blob");
  const double dt = s.dt_given ? s.dt : h * h / (8 * nu);
  if (!(dt > 0)) throw cli::UsageError("--dt must be positive, got " + number_text(dt));
  require("--dt", dt, "nu dt / h^2", nu * dt / (h * h), kBlobDiffusionNumber,
          "--blob, nu = " + short_text(nu) + ", h = " + short_text(h));
  if (s.steps_given) require("--steps", s.steps, kSteps);
  require("--blob-width", s.blob_width, kBlobWidth, "lattice spacings");
  // The lattice points the blob covers at the end: PSE starts from the whole cube of 5 final
  // deviations, VRM fills about the ball of 4 (ring_blob.cpp).
  const double steps = s.steps_given ? s.steps : 40, sd = s.blob_width * h;
  const double reach = std::sqrt(sd * sd + 2 * nu * dt * steps) / h;
  const long double points = s.diffusion == "pse" ? std::pow(2 * std::ceil(5 * reach) + 1.0L, 3)
                                                  : 4.19L * std::pow(4 * reach + 1.0L, 3);
  cli::require_memory("--blob with --steps " + number_text(steps) + " (about " +
                          short_text(static_cast<double>(points)) + " lattice points)",
                      kBytesPerParticle * points);
}

int layers_for_section(int per_section) {
  for (int layers = 0; layers <= 20; ++layers)
    if (1 + 3 * layers * (layers + 1) == per_section) return layers;
  throw cli::UsageError("--per-section: " + std::to_string(per_section) +
                        " is not 1 + 3 L (L + 1) (1, 7, 19, 37, 61, 91, ...)");
}

}  // namespace

void add_options(cli::OptionParser& parser, Settings& s, std::string& case_file) {
  cli::add_shared(parser, SharedOption::Case, case_file);
  add_ring_options(parser, s);
  add_physics_options(parser, s);
  add_output_options(parser, s);
  s.solver.add_to(parser);
}

bool parse_settings(int argc, char** argv, Settings& s) {
  std::string case_file;  // read by parse_with_case_file; registered for --help and the checks
  cli::OptionParser parser("vortex-ring", "[options]", kDescription);
  add_options(parser, s, case_file);
  if (!cli::parse_with_case_file(parser, argc, argv, add_options)) return false;
  s.dt_given = parser.given("--dt");
  s.steps_given = parser.given("--steps");
  s.merge_distance_given = parser.given(cli::option_name(SharedOption::MergeDistance));
  s.every_given = parser.given(cli::option_name(SharedOption::Every));
  if (s.per_section != 0) s.ring.layers = layers_for_section(s.per_section);
  check_settings(s);
  return true;
}

void check_settings(const Settings& s) {
  // Shared by both modes.
  if (s.nu != 0 && !(s.nu > 0))
    throw cli::UsageError("--nu " + number_text(s.nu) +
                          " is out of range: 0 (from --re) or positive");
  cli::check_shared(SharedOption::RemoveThreshold, s.remove_threshold);
  cli::check_shared(SharedOption::Progress, s.progress);
  if (s.blob) return check_blob(s);
  require("--radius", s.ring.radius, kScale);
  require("--core-radius", s.ring.core_radius, "a / R", s.ring.core_radius / s.ring.radius,
          kCoreRadius, "--radius " + number_text(s.ring.radius));
  require("--circulation", s.ring.circulation, kScale);
  require("--layers", s.ring.layers, kLayers);
  if (s.ring.stations != 0) require("--stations", s.ring.stations, kStations, "or 0");
  require("--gaussian-width", s.ring.gaussian_width, kGaussianWidth, "times the core radius");
  require("--overlap", s.ring.overlap, kOverlap, "sigma over the particle spacing");
  require("--separation", s.separation, "separation / R", s.separation / s.ring.radius, kSeparation,
          "--radius " + number_text(s.ring.radius));
  if (s.second_radius != 0) {
    require("--second-radius", s.second_radius, "R2 / a", s.second_radius / s.ring.core_radius,
            kSecondRadius, "--core-radius " + number_text(s.ring.core_radius) + "; or 0: R");
    require("--second-radius", s.second_radius, "R2 / R", s.second_radius / s.ring.radius,
            Range{0, 10, true}, "--radius " + number_text(s.ring.radius) + "; or 0: R");
  }
  if (s.re != 0) require("--re", s.re, kRe, "or 0: inviscid");
  if (s.nu > 0)
    require("--nu", s.nu, "the Reynolds number circulation / nu", s.ring.circulation / s.nu, kMaxRe,
            "--circulation " + number_text(s.ring.circulation));
  const double core_time = s.ring.core_radius * s.ring.core_radius / s.ring.circulation;
  if (!(s.dt > 0)) throw cli::UsageError("--dt must be positive, got " + number_text(s.dt));
  require("--dt", s.dt, "dt G / a^2", s.dt / core_time, kDt,
          "a^2 / G = " + short_text(core_time) + ", the core's time scale");
  require("--steps", s.steps, kSteps);
  cli::check_time_step_options(s.stretching, s.relaxation, s.relaxation_rate, s.dt);
  const double h = s.ring.core_radius / (s.ring.layers + 0.5);
  if (s.spacing != 0)
    require("--spacing", s.spacing, "spacing / h", s.spacing / h, kSpacing,
            "h = a / (L + 0.5) = " + short_text(h) + ", the ring's particle spacing; or 0: h");
  const double nu = viscosity(s), lattice = s.spacing > 0 ? s.spacing : h;
  if (nu > 0)
    require(s.nu > 0 ? "--nu" : "--re", s.nu > 0 ? s.nu : s.re, "nu dt / h^2",
            nu * s.dt / (lattice * lattice), kDiffusionNumber,
            "nu = " + short_text(nu) + ", --dt " + number_text(s.dt) + ", h = " +
                short_text(lattice) + ": the VRM's neighbourhoods grow as its 3/2 power");
  require("--insert-threshold", s.insert_threshold, kInsertThreshold,
          "a fraction of the largest |Gamma|");
  cli::check_shared(SharedOption::MergeDistance, s.merge_distance);
  cli::parse_merge_into(s.merge_into);  // throws, naming the accepted values
  require("--max-particles", s.max_particles, kMaxParticles, "0: no bound");
  require("--skip", s.skip, kSkip, "a fraction of the run");
  require("--windows", s.windows, kWindows);
  if (s.every_given) cli::check_shared(SharedOption::Every, s.every);
}

RunPlan plan_run(Settings& s) {
  if (s.per_section > 0) s.ring.layers = layers_for_section(s.per_section);
  check_settings(s);
  RunPlan plan;
  plan.solver = s.solver.options();
  if (plan.solver.core == Core::Singular)
    throw cli::UsageError("--core singular: a ring of singular particles has no finite speed");
  if (plan.solver.threads > 0) omp_set_num_threads(plan.solver.threads);
  plan.scheme = parse_time_scheme(s.scheme);
  plan.stretching = parse_stretching(s.stretching);  // checked by check_settings
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
  return s.re > 0 ? s.ring.circulation / s.re : 0.0;
}

}  // namespace vortex::ring_app
