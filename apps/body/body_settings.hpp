#pragma once
// The settings of a vortex-body run, their command-line options (shared with JSON case files),
// and the body and stream they describe.

#include <array>
#include <string>

#include "cli.hpp"
#include "solver_cli.hpp"
#include "vortex/bodies/body_flow.hpp"
#include "vortex/bodies/surface.hpp"

namespace vortex::body_app {

struct Settings {
  // The body: a sphere, an ellipsoid or a mesh file.
  std::string body = "sphere", mesh, map = "affine", axes = "0.5,0.5,0.05";
  int frequency = 8;
  double radius = 0.5, diameter = 0;
  // Flow and time stepping; the stream lies in the x-z plane at `angle` degrees from x.
  double re = 300, dt = 0.02, angle = 0, speed = 1;
  std::string stream;  // "UX,UY,UZ": any direction, instead of angle and speed
  int steps = 10;
  // Particles, shedding, diffusion, wall.
  std::string shedding = "kernel";  // kernel: half-space heat kernel; offset: one height
  double spacing = 0, shed_offset = 1.0, shed_layer = 1.0, shed_core = 0, sheet_core = 0,
         wall_core = 0;
  double min_wall = 0.2;
  double wall_exact_reach = 1.5;  // BodyFlowOptions::wall_exact_reach (largest panel diameters)
  double outflow = 0;             // BodyFlowOptions::outflow, a length (0: none)
  double max_growth = 100;        // BodyFlowOptions::max_growth (0: never)
  double merge_distance = 0.5, remove_threshold = 1e-5;
  std::string merge_into = "neighbours";  // neighbours or partner (ParticleControlOptions)
  std::string stretching = "classical";   // classical, transpose, none (BodyFlowOptions)
  double relaxation = 0;                  // BodyFlowOptions::relaxation, the fraction per step
  double relaxation_rate = 0;             // BodyFlowOptions::relaxation_rate
  std::string vrm_backend = "same";  // the VRM's first round: same (as --backend), auto, cpu, cuda
  std::string control_backend = "same";  // particle control's decisions: same (as the VRM's), ...
  std::string particle_order = "grid";   // after each control: grid (its cells') or caller
  // The boundary-element solve.
  double bem_tolerance = 1e-6;
  std::string bem_precision = "same";     // the far-field product's: same (as --precision), or one
  int bem_cluster = 32, bem_coarse = -1;  // the preconditioner (BemOptions; -1: auto)
  bool bem_only = false, dense = false, wall_cores = false;
  // Output.
  std::string output = "vortex-body-out", json, restart, case_file;
  int every = 1, checkpoint_every = 0, projections = 0, projection_cells = 120, field_grid = 0;
  int bench_diffusion = 0;  // > 0: time this many diffusion sub-steps of the restart state
  int bench_velocity = 0;   // > 0: time this many velocity evaluations of the restart state
  int bench_bem = 0;        // > 0: time this many boundary-element solves (t = 0+ or the restart)
  int bench_sample = 1000;  // particles compared with the direct sum by --bench-velocity
  double progress = 5;
  double stop_after = 0;  // > 0: stop with a checkpoint before the run's wall time passes this
  bool no_plot = false, quiet = false;
};

// Registers the options (those vortex-ring offers too from the shared table, toolkit_cli.hpp);
// their help gives each numeric option's valid range.
void add_options(cli::OptionParser& parser, Settings& s, cli::SolverCli& solver);

// Reads the case file (--case) and the command line into `s` and the solver's options, and checks
// them (check). Returns false after --help.
bool parse_settings(int argc, char** argv, Settings& s, SolverOptions& solver);
// --particle-order: true for grid, false for caller; throws std::invalid_argument naming the
// option otherwise.
bool parse_particle_order(const std::string& name);

// Throws std::invalid_argument naming the first setting out of its range (the option, its value
// and the range), of those that need no body; std::runtime_error when the generated body's panels
// alone cannot fit in memory.
void check(const Settings& s);

// What the run is expected to hold at its end: the particles it starts from (a checkpoint's)
// and, over its steps, the more of two counts: those shed, 2 diffusion sub-steps a step, each
// shedding a particle per patch of about h^2 (or per panel, where panels are larger) and per
// layer of the shed profile; and those that fill the layer next to the wall, diffused to
// sqrt(2 nu t), on the VRM's lattice of h. At the measured bytes per particle, with the panels and
// the boundary-element solve's matrices.
struct MemoryEstimate {
  long double patches = 0, layers = 0, shed = 0, layer_thickness = 0, layer_fill = 0;
  long double particles_start = 0, particles = 0, panels = 0, bytes = 0;
};
MemoryEstimate estimate_memory(const Settings& s, long double area, long double panels, double h,
                               double nu);

// The settings that are relative to the body (--dt in units of D / U, h and the cores in units of
// D and h, --diameter) and the run's memory estimate against the memory available; throws as
// check() does.
void check_on_body(const Settings& s, const bodies::Surface& surface);

// The checked surface (vortex::bodies::MeshError or vortex::FileError on bad meshes), after
// check_on_body.
bodies::Surface make_body_surface(const Settings& s);
bodies::Vec3 free_stream(const Settings& s);
// The body's reference diameter D (the option, or the body's largest width) and Re = U D / nu.
double reference_diameter(const Settings& s, const bodies::Surface& surface);
double viscosity(const Settings& s, double diameter);
// h: the option, or sqrt(8 nu dt) (the paper's h = sqrt(8 dt / Re) for U = D = 1).
double particle_spacing(const Settings& s, double nu);
// The body flow's options; the VRM's first round follows `particles` (the particle solver's
// backend) unless --vrm-backend names another.
bodies::BodyFlowOptions flow_options(const Settings& s, double nu, double h, Backend particles);
bodies::BemOptions bem_options(const Settings& s, const SolverOptions& solver);
std::string case_name(const Settings& s);

}  // namespace vortex::body_app
