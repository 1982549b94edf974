#pragma once
// The settings of vortex-ring, from an optional JSON case file and the command line, and the
// values derived from them that the run checks before it starts.

#include <string>

#include "cli.hpp"
#include "solver_cli.hpp"
#include "vortex/generators.hpp"
#include "vortex/options.hpp"
#include "vortex/time_integration.hpp"

namespace vortex::ring_app {

struct Settings {
  // The ring (its center and axis as RingOptions has them) and an optional second one behind it
  // on the same axis.
  RingOptions ring;
  int per_section = 0;
  bool second_ring = false;
  double separation = 0.4, second_radius = 0;
  // Physics and time stepping.
  double re = 0, nu = 0, dt = 0.005;
  int steps = 400;
  std::string scheme = "heun", stretching = "transpose", diffusion = "vrm";
  double relaxation = 0;       // TimeIntegratorOptions::relaxation
  double relaxation_rate = 0;  // TimeIntegratorOptions::relaxation_rate
  // Diffusion and particle control.
  double spacing = 0, remove_threshold = 1e-6, merge_distance = 0.5, insert_threshold = 0;
  std::string merge_into = "neighbours";  // neighbours or partner (ParticleControlOptions)
  int max_particles = 0;
  // Measurement and output.
  double skip = 0.1;
  int windows = 8;
  std::string output = "vortex-ring-out", json;
  int every = -1;
  double progress = 5;
  bool no_plot = false, quiet = false;
  bool mpi = false;  // split the run over the ranks of MPI_COMM_WORLD
  // The diffusion check: a Gaussian blob, no advection.
  bool blob = false;
  double blob_width = 2;
  // Options whose defaults depend on the mode, so whether they were given matters.
  bool dt_given = false, steps_given = false, merge_distance_given = false, every_given = false;
  cli::SolverCli solver;
};

// Registers vortex-ring's options (and --case, into `case_file`) on `parser`.
void add_options(cli::OptionParser& parser, Settings& s, std::string& case_file);

// Reads the case file (--case) and the command line into `s` and checks them (check_settings).
// Returns false after --help. A case file is one flat JSON object whose keys are the long option
// names without the dashes, e.g. {"core-radius": 0.1, "layers": 2, "re": 500, "second-ring": true}
// (the strict reader of case_file.hpp); options given on the command line win.
bool parse_settings(int argc, char** argv, Settings& s);

// Checks every numeric setting against its range (shown by --help) before anything runs;
// cli::UsageError names the option, its value and the range.
void check_settings(const Settings& s);

// What a ring run derives from the settings, checked (cli::UsageError names a bad value).
struct RunPlan {
  SolverOptions solver;
  TimeScheme scheme = TimeScheme::Heun;
  Stretching stretching = Stretching::Transpose;
  double relaxation = 0, relaxation_rate = 0;
  double nu = 0;  // kinematic viscosity; 0: inviscid
  bool viscous = false;
  int every = 0;  // steps between .vtp files; 0: none
};

// Checks the ring run's settings; sets the layers from --per-section when given.
RunPlan plan_run(Settings& s);

double viscosity(const Settings& s);

}  // namespace vortex::ring_app
