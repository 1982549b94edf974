#include "body_settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "body_ranges.hpp"
#include "case_file.hpp"
#include "memory_check.hpp"
#include "option_range.hpp"
#include "toolkit_cli.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/mesh_io.hpp"
#include "vortex/time_integration.hpp"

namespace vortex::body_app {

namespace {

using cli::range_text;
using cli::SharedOption;
using cli::short_text;
using cli::valid;

// The body, the flow and the time steps.
void add_case_options(cli::OptionParser& p, Settings& s) {
  cli::add_shared(p, SharedOption::Case, s.case_file);
  p.add("--body", "sphere|ellipsoid", "generated body", s.body);
  p.add("--mesh", "FILE", "closed, outward-oriented mesh (.stl or .vtp) instead of --body", s.mesh,
        "-");
  p.add("--frequency", "F", "icosphere frequency (20 F^2 panels)" + valid(kFrequency), s.frequency);
  p.add("--radius", "R", "sphere radius" + valid(kScale), s.radius);
  p.add("--axes", "A,B,C",
        "ellipsoid semi-axes along x, y, z; valid: each in " + range_text(kScale), s.axes);
  p.add("--map", "affine|equal-angle", "sphere-to-ellipsoid map", s.map);
  p.add("--diameter", "D",
        "reference diameter (0: the body's largest width W)" + valid(kDiameter, " W", true),
        s.diameter);
  p.add("--re", "RE", "Reynolds number U D / nu" + valid(kRe), s.re);
  p.add("--dt", "DT", "time step" + valid(kDt, " D / U"), s.dt);
  p.add("--steps", "N", "time steps" + valid(kSteps), s.steps);
  p.add("--angle", "DEG", "stream angle from x towards z, degrees" + valid(kAngle), s.angle);
  p.add("--speed", "U", "free-stream speed" + valid(kScale), s.speed);
  p.add("--stream", "UX,UY,UZ",
        "free stream in any direction (instead of --angle, --speed); valid: a length in " +
            range_text(kScale),
        s.stream, "-");
}

// The particles: spacing, shedding, cores next to the wall, particle control, stretching, the VRM.
void add_particle_options(cli::OptionParser& p, Settings& s) {
  p.add("--spacing", "H",
        "particle spacing h (0: sqrt(8 nu dt)); valid: h in " + range_text(kSpacing) + " D",
        s.spacing);
  p.add("--shedding", "kernel|offset",
        "wall diffusion: half-space heat kernel (layers of the shed profile, image drift), or "
        "one particle per patch at --shed-offset",
        s.shedding);
  p.add("--shed-layer", "F", "layer thickness of the shed profile, units of h" + valid(kShedLayer),
        s.shed_layer);
  p.add("--shed-offset", "F",
        "height of shed particles above the wall, units of h (--shedding offset)" +
            valid(kShedOffset),
        s.shed_offset);
  p.add("--shed-core", "S", "core radius of shed particles (0: h)" + valid(kCore, " h", true),
        s.shed_core);
  p.add("--sheet-core", "S",
        "core of the sheet as a source for particles (0: h)" + valid(kCore, " h", true),
        s.sheet_core);
  p.add("--wall-core", "S",
        "largest core of particles in the BEM right-hand side (0: h/2)" + valid(kCore, " h", true),
        s.wall_core);
  p.add_flag("--wall-cores",
             "the BEM sees particles next to the wall as cores at its quadrature points only "
             "(no exact point-vortex panel averages)",
             s.wall_cores);
  p.add("--wall-exact-reach", "R",
        "reach of the exact panel averages next to the wall, largest panel diameters (or 2.5 "
        "cores)" +
            valid(kWallReach),
        s.wall_exact_reach);
  p.add("--min-wall", "F",
        "push particles out to this distance from the wall, units of h" + valid(kFraction),
        s.min_wall);
  p.add("--outflow", "L",
        "particles farther than L downstream of the body leave the flow after each step, their "
        "impulse and vorticity kept in the run's (bounds long runs' particle count); a length in "
        "the body's units, at least the body's size (0: none)" +
            valid(kOutflow),
        s.outflow);
  p.add("--max-growth", "G",
        "stop with an error when a step's convection grows the strongest particle's |Gamma| more "
        "than G times: the stretching has outrun the time step (0: never)" +
            valid(kMaxGrowth, "", true),
        s.max_growth);
  cli::add_shared(p, SharedOption::MergeDistance, s.merge_distance);
  cli::add_shared(p, SharedOption::MergeInto, s.merge_into);
  cli::add_shared(p, SharedOption::RemoveThreshold, s.remove_threshold);
  cli::add_shared(p, SharedOption::Stretching, s.stretching);
  cli::add_shared(p, SharedOption::Relaxation, s.relaxation);
  cli::add_shared(p, SharedOption::RelaxationRate, s.relaxation_rate);
  p.add("--vrm-backend", "same|auto|cpu|cuda",
        "where the VRM's first round solves the particles away from the wall (same: --backend)",
        s.vrm_backend);
  p.add("--control-backend", "same|auto|cpu|cuda",
        "where the particle control decides its merges and hand-overs (same: --vrm-backend)",
        s.control_backend);
  p.add("--particle-order", "grid|caller",
        "the particles' order after each particle control: its grid's (cells of h, so that "
        "neighbours sit near each other in memory) or the order they came in",
        s.particle_order);
}

// The boundary-element solve.
void add_bem_options(cli::OptionParser& p, Settings& s) {
  p.add("--bem-tolerance", "TOL", "GMRES relative residual" + valid(kBemTolerance),
        s.bem_tolerance);
  p.add("--bem-precision", "same|auto|float|double",
        "the far-field product's arithmetic (same: --precision's; auto: float terms with double "
        "sums where --bem-tolerance is at least " +
            short_text(bodies::kFloatProductTolerance) + ", else double)",
        s.bem_precision);
  p.add("--bem-cluster", "N",
        "panels per block of GMRES's block-Jacobi preconditioner" + valid(kBemCluster),
        s.bem_cluster);
  p.add("--bem-coarse", "N",
        "aggregates of the preconditioner's coarse level (smooth sheet fields; 0: none; -1: 64 "
        "where the solve runs on the GPU, 8 on the host)" +
            valid(kBemCoarse),
        s.bem_coarse);
  p.add_flag("--bem-only", "solve the boundary elements at t = 0+ and stop", s.bem_only);
  p.add_flag("--dense", "dense LU instead of GMRES (small meshes)", s.dense);
}

// Outputs, checkpoints, benchmarks and progress.
void add_output_options(cli::OptionParser& p, Settings& s) {
  cli::add_shared(p, SharedOption::Output, s.output);
  cli::add_shared(p, SharedOption::Json, s.json);
  cli::add_shared(p, SharedOption::Every, s.every);
  p.add("--checkpoint-every", "K",
        "write a checkpoint every K steps and at the last (0: never); valid: >= 0",
        s.checkpoint_every);
  p.add("--restart", "FILE", "continue from a checkpoint", s.restart, "-");
  p.add("--projections", "K",
        "every K steps and at the last, the integrated vorticity magnitude along z, y and x as "
        "grids and a PNG (0: never); valid: >= 0",
        s.projections);
  p.add("--projection-cells", "N",
        "bins along the particles' longest extent" + valid(kProjectionCells), s.projection_cells);
  p.add("--field-grid", "N",
        "at the steps of --projections, Q, |omega| and the velocity on a grid of N cells along "
        "the wake's longest side (field-<step>.vtk, for iso-surfaces; 0: none)" +
            valid(kFieldGrid, "", true),
        s.field_grid);
  p.add("--bench-diffusion", "K",
        "with --restart: time K diffusion sub-steps (dt/2), each from the checkpoint's particles, "
        "print their median times and a digest of the result, and stop" +
            valid(kBenchRepeats),
        s.bench_diffusion);
  p.add("--bench-velocity", "K",
        "with --restart: time K evaluations of the velocity and gradient of the checkpoint's "
        "particles (their own field, after a warm-up call) on the chosen backend, compare the "
        "last with a double-precision direct sum at --bench-sample particles, and stop" +
            valid(kBenchRepeats),
        s.bench_velocity);
  p.add("--bench-bem", "K",
        "time K boundary-element solves after a warm-up, each from the same start (the t = 0+ "
        "sheet from zero, or with --restart the checkpoint's particles from its sheet), with each "
        "solve's operator products by part, and stop" +
            valid(kBenchRepeats),
        s.bench_bem);
  p.add("--bench-sample", "S",
        "particles compared with the direct sum by --bench-velocity" + valid(kBenchSample),
        s.bench_sample);
  cli::add_shared(p, SharedOption::Progress, s.progress);
  p.add("--stop-after", "SECONDS",
        "stop with a checkpoint after the last step that is expected (by the time of the step "
        "before) to end within this wall time; --restart continues (0: never)" +
            valid(kSeconds),
        s.stop_after);
  cli::add_shared(p, SharedOption::NoPlot, s.no_plot);
  cli::add_shared(p, SharedOption::Quiet, s.quiet);
}

}  // namespace

void add_options(cli::OptionParser& p, Settings& s, cli::SolverCli& solver) {
  add_case_options(p, s);
  add_particle_options(p, s);
  add_bem_options(p, s);
  add_output_options(p, s);
  solver.add_to(p);
}

bool parse_settings(int argc, char** argv, Settings& s, SolverOptions& solver) {
  cli::SolverCli solver_cli;
  cli::OptionParser parser("vortex-body", "[options]",
                           "Flow past a body at rest, started impulsively: boundary elements, "
                           "vorticity shedding, VRM diffusion, forces.");
  add_options(parser, s, solver_cli);
  if (!cli::parse_with_case_file(parser, argc, argv, add_options)) return false;
  // Everything that can be wrong with the input is checked before anything is written.
  check(s);
  solver = solver_cli.options();
  return true;
}

namespace {

bodies::Surface generate_surface(const Settings& s) {
  using namespace bodies;
  if (!s.mesh.empty()) return make_surface(read_mesh(s.mesh), s.mesh);
  if (s.body == "sphere") return make_surface(sphere(s.frequency, s.radius), "sphere");
  const auto axes = cli::split_list(s.axes);
  if (axes.size() != 3) throw std::invalid_argument("--axes needs three semi-axes A,B,C");
  return make_surface(ellipsoid(s.frequency, cli::parse_double("--axes", axes[0]),
                                cli::parse_double("--axes", axes[1]),
                                cli::parse_double("--axes", axes[2]), parse_ellipsoid_map(s.map)),
                      "ellipsoid");
}

}  // namespace

bodies::Surface make_body_surface(const Settings& s) {
  bodies::Surface surface = generate_surface(s);
  check_on_body(s, surface);
  return surface;
}

bodies::Vec3 free_stream(const Settings& s) {
  if (!s.stream.empty()) {
    const auto u = cli::split_list(s.stream);
    if (u.size() != 3) throw std::invalid_argument("--stream needs three components UX,UY,UZ");
    const bodies::Vec3 v{cli::parse_double("--stream", u[0]), cli::parse_double("--stream", u[1]),
                         cli::parse_double("--stream", u[2])};
    if (!(bodies::norm(v) > 0) || !std::isfinite(bodies::norm(v)))
      throw std::invalid_argument("--stream must be a finite, non-zero vector");
    if (!kScale.contains(bodies::norm(v)))
      throw std::invalid_argument("--stream " + s.stream + ": its length " +
                                  short_text(bodies::norm(v)) + " is out of range " +
                                  range_text(kScale) + " (the app's units are of order one)");
    return v;
  }
  const double a = s.angle * M_PI / 180;
  return {s.speed * std::cos(a), 0, s.speed * std::sin(a)};
}

double reference_diameter(const Settings& s, const bodies::Surface& surface) {
  if (s.diameter > 0) return s.diameter;
  double width = 0;
  for (int c = 0; c < 3; ++c) {
    double lo = 1e300, hi = -1e300;
    for (const auto& v : surface.mesh.vertices) {
      lo = std::min(lo, v[c]);
      hi = std::max(hi, v[c]);
    }
    width = std::max(width, hi - lo);
  }
  return width;
}

double viscosity(const Settings& s, double diameter) {
  return bodies::norm(free_stream(s)) * diameter / s.re;
}

double particle_spacing(const Settings& s, double nu) {
  return s.spacing > 0 ? s.spacing : std::sqrt(8 * nu * s.dt);
}

bool parse_particle_order(const std::string& name) {
  if (name == "grid") return true;
  if (name == "caller") return false;
  throw std::invalid_argument("--particle-order: unknown '" + name + "' (grid or caller)");
}

bodies::BodyFlowOptions flow_options(const Settings& s, double nu, double h, Backend particles) {
  bodies::BodyFlowOptions o;
  o.nu = nu;
  const bodies::Vec3 u = free_stream(s);
  o.free_stream = {u.x, u.y, u.z};
  o.spacing = h;
  o.min_wall_distance = s.min_wall;
  o.sheet_core = s.sheet_core;
  o.wall_core = s.wall_core;
  o.wall_exact = !s.wall_cores;
  o.wall_exact_reach = s.wall_exact_reach;
  o.outflow = s.outflow;
  o.max_growth = s.max_growth;
  o.wall_diffusion = s.shedding == "kernel";
  o.shedding.offset = s.shed_offset;
  o.shedding.layer = s.shed_layer;
  o.shedding.core_radius = s.shed_core;
  o.control.merge_distance = s.merge_distance;
  o.control.merge_into = cli::parse_merge_into(s.merge_into);
  o.control.remove_threshold = s.remove_threshold;
  o.control.spatial_order = parse_particle_order(s.particle_order);
  o.stretching = parse_stretching(s.stretching);
  o.relaxation = s.relaxation;
  o.relaxation_rate = s.relaxation_rate;
  o.vrm.backend = s.vrm_backend == "same" ? particles : parse_backend(s.vrm_backend);
  o.control.backend =
      s.control_backend == "same" ? o.vrm.backend : parse_backend(s.control_backend);
  // A device asked for and absent is named now, not at the first sub-step.
  resolve_backend(o.vrm.backend);
  resolve_backend(o.control.backend);
  return o;
}

bodies::BemOptions bem_options(const Settings& s, const SolverOptions& solver) {
  bodies::BemOptions o;
  o.method = s.dense ? bodies::BemMethod::Dense : bodies::BemMethod::Gmres;
  o.tolerance = s.bem_tolerance;
  o.cluster_size = s.bem_cluster;
  o.coarse_aggregates = s.bem_coarse;
  o.solver = solver;
  if (s.bem_precision != "same") o.solver.precision = parse_precision(s.bem_precision);
  return o;
}

std::string case_name(const Settings& s) {
  if (!s.mesh.empty()) return "mesh";
  return s.body + "-f" + std::to_string(s.frequency);
}

}  // namespace vortex::body_app
