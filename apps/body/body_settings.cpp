#include "body_settings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <system_error>

#include "case_file.hpp"
#include "memory_check.hpp"
#include "option_range.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/mesh_io.hpp"
#include "vortex/time_integration.hpp"

namespace vortex::body_app {

namespace {

using cli::number_text;
using cli::Range;
using cli::range_text;
using cli::short_text;

constexpr cli::RangeCheck<std::invalid_argument> require;
using cli::valid;

// Lengths and speeds are of order one in the app's units (D = U = 1 by default): these bounds
// keep products such as U D / Re, 8 nu dt and their squares far inside double precision.
constexpr Range kScale{1e-6, 1e6};
constexpr Range kFrequency{1, 2048};  // 20 F^2 panels: 8.4e7 at most
// Beyond, the boundary layer (about D / sqrt(Re)) is thinner than any spacing that fits in memory.
constexpr Range kRe{0, 1e7, true};
constexpr Range kDt{1e-6, 0.5};  // of D / U: the stream moves at most half the body a step
constexpr Range kSteps{0, 1e7};
constexpr Range kAngle{-360, 360};
constexpr Range kDiameter{0.01, 100};          // of the body's largest width, or 0
constexpr Range kSpacing{0, 0.25, true};       // of D: at least 4 particles across the body
constexpr Range kShedLayer{0.1, 10};           // of h: finer layers merge at once (--merge)
constexpr Range kShedOffset{0, 4, true};       // of h: in the fluid, within the diffusion length
constexpr Range kCore{0.1, 4};                 // of h, or 0: overlapping cores that do not smear
constexpr Range kFraction{0, 1, false, true};  // --min-wall, --merge (units of h)
constexpr Range kRemove{0, 0.01};           // of max |Gamma|: more removes circulation that matters
constexpr Range kBemTolerance{1e-14, 0.1};  // below, double precision cannot reach it
constexpr Range kBemCluster{1, 256};
constexpr Range kBemCoarse{0, 256};
constexpr Range kProjectionCells{2, 4096};
constexpr Range kBenchRepeats{0, 1000};
constexpr Range kBenchSample{1, 1e6};
constexpr Range kSeconds{0, 1e9};

// Host bytes per particle at the end of the discoid runs (1,775 to 2,284, docs/PERFORMANCE.md),
// the largest rounded up: the particles, their velocities and gradients, the VRM's and the
// treecode's work arrays.
constexpr long double kBytesPerParticle = 2300;
// Host bytes per panel apart from the preconditioner's blocks (64 cluster bytes a panel) and
// coarse level (96 aggregates bytes a panel): the mesh, the panels and their quadrature points,
// the BEM's near field and GMRES's vectors. The peak resident set of --bem-only on the sphere was
// 12.4 and 12.7 kB a panel at 5,120 and 11,520 panels with the defaults.
constexpr long double kBytesPerPanel = 10000;
// 1 - erfc(2.5758 / sqrt 2) = 0.99: the shed profile's layers reach 2.5758 s (its tail cut 1e-2).
constexpr double kProfileReach = 2.5758;
// A checkpoint holds 7 doubles a particle (and less besides).
constexpr long double kCheckpointBytesPerParticle = 56;

long double panel_bytes(const Settings& s, long double panels) {
  if (s.dense) return panels * kBytesPerPanel + 96 * panels * panels;  // (2P)^2 doubles, 3 copies
  return panels * (kBytesPerPanel + 64.0L * s.bem_cluster + 96.0L * s.bem_coarse);
}

}  // namespace

void add_options(cli::OptionParser& p, Settings& s, cli::SolverCli& solver) {
  p.add("--case", "FILE", "JSON case file (flat object of these options)", s.case_file, "-");
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
  p.add("--min-wall", "F",
        "push particles out to this distance from the wall, units of h" + valid(kFraction),
        s.min_wall);
  p.add("--merge", "F", "merge particles closer than F h" + valid(kFraction), s.merge);
  p.add("--remove", "F", "remove particles weaker than F * max |Gamma|" + valid(kRemove), s.remove);
  p.add("--stretching", "NAME", "vortex stretching: classical, transpose, none", s.stretching);
  p.add("--relaxation", "F",
        "turn each particle's strength by this fraction toward the field's vorticity at the start "
        "of every step (0: none); valid: [0, 1]",
        s.relaxation);
  p.add("--relaxation-rate", "R",
        "the same at a rate per unit time: the fraction R dt each step, so that runs at different "
        "time steps relax alike (1.25 in V2 of docs/VALIDATION.md; 0: none); valid: R dt at most 1",
        s.relaxation_rate);
  p.add("--vrm-backend", "same|auto|cpu|cuda",
        "where the VRM's first round solves the particles away from the wall (same: --backend)",
        s.vrm_backend);
  p.add("--bem-tolerance", "TOL", "GMRES relative residual" + valid(kBemTolerance),
        s.bem_tolerance);
  p.add("--bem-cluster", "N",
        "panels per block of GMRES's block-Jacobi preconditioner" + valid(kBemCluster),
        s.bem_cluster);
  p.add("--bem-coarse", "N",
        "aggregates of the preconditioner's coarse level (smooth sheet fields; 0: none)" +
            valid(kBemCoarse),
        s.bem_coarse);
  p.add_flag("--bem-only", "solve the boundary elements at t = 0+ and stop", s.bem_only);
  p.add_flag("--dense", "dense LU instead of GMRES (small meshes)", s.dense);
  p.add("-o,--out", "DIR", "output folder", s.out);
  p.add("--json", "FILE", "write a JSON summary", s.json, "-");
  p.add("--every", "K", "write particles and surface every K steps (0: never); valid: >= 0",
        s.every);
  p.add("--checkpoint-every", "K", "write a checkpoint every K steps (0: never); valid: >= 0",
        s.checkpoint_every);
  p.add("--restart", "FILE", "continue from a checkpoint", s.restart, "-");
  p.add("--projections", "K",
        "every K steps and at the last, the integrated vorticity magnitude along z, y and x as "
        "grids and a PNG (0: never); valid: >= 0",
        s.projections);
  p.add("--projection-cells", "N",
        "bins along the particles' longest extent" + valid(kProjectionCells), s.projection_cells);
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
  p.add("--bench-sample", "S",
        "particles compared with the direct sum by --bench-velocity" + valid(kBenchSample),
        s.bench_sample);
  p.add("--progress", "SECONDS", "progress line interval" + valid(kSeconds), s.progress);
  p.add("--stop-after", "SECONDS",
        "stop with a checkpoint after the last step that is expected (by the time of the step "
        "before) to end within this wall time; --restart continues (0: never)" +
            valid(kSeconds),
        s.stop_after);
  p.add_flag("--no-plot", "skip the PNG plots", s.no_plot);
  p.add_flag("--quiet", "no progress lines", s.quiet);
  solver.add_to(p);
}

std::vector<std::string> case_file_arguments(const std::string& path) {
  // A parser of vortex-body's options, for their types; its values are thrown away.
  Settings probe;
  cli::SolverCli solver;
  cli::OptionParser parser("vortex-body", "", "");
  add_options(parser, probe, solver);
  return cli::case_file_arguments(path, parser);
}

void check(const Settings& s) {
  auto positive = [](double v, const char* name) {
    if (!(v > 0))
      throw std::invalid_argument(std::string(name) + " must be positive, got " + number_text(v));
  };
  positive(s.re, "--re");
  positive(s.dt, "--dt");
  positive(s.speed, "--speed");
  positive(s.radius, "--radius");
  require("--re", s.re, kRe);
  require("--speed", s.speed, kScale, "the app's units are of order one");
  require("--radius", s.radius, kScale, "the app's units are of order one");
  require("--angle", s.angle, kAngle, "degrees");
  if (s.steps < 0) throw std::invalid_argument("--steps must be >= 0");
  require("--steps", s.steps, kSteps);
  parse_stretching(s.stretching);  // throws, naming the accepted values
  check_relaxation(s.relaxation, s.relaxation_rate, "--relaxation", "--relaxation-rate", s.dt,
                   "--dt");
  if (s.vrm_backend != "same") parse_backend(s.vrm_backend);
  require("--bench-diffusion", s.bench_diffusion, kBenchRepeats);
  if (s.bench_diffusion > 0 && s.restart.empty())
    throw std::invalid_argument("--bench-diffusion needs --restart (the state to diffuse)");
  require("--bench-velocity", s.bench_velocity, kBenchRepeats);
  if (s.bench_velocity > 0 && s.restart.empty())
    throw std::invalid_argument("--bench-velocity needs --restart (the particles to evaluate)");
  require("--bench-sample", s.bench_sample, kBenchSample);
  if (!(s.stop_after >= 0)) throw std::invalid_argument("--stop-after must be >= 0 seconds");
  require("--stop-after", s.stop_after, kSeconds, "seconds");
  require("--progress", s.progress, kSeconds, "seconds");
  require("--frequency", s.frequency, kFrequency, "20 F^2 panels");
  if (s.body != "sphere" && s.body != "ellipsoid")
    throw std::invalid_argument("--body: unknown body '" + s.body + "' (sphere or ellipsoid)");
  if (s.mesh.empty() && s.body == "ellipsoid") {
    const auto axes = cli::split_list(s.axes);
    if (axes.size() != 3) throw std::invalid_argument("--axes needs three semi-axes A,B,C");
    double a[3];
    for (int k = 0; k < 3; ++k) {
      a[k] = cli::parse_double("--axes", axes[k]);
      require("--axes", a[k], kScale, "each semi-axis; the app's units are of order one");
    }
    if (bodies::parse_ellipsoid_map(s.map) == bodies::EllipsoidMap::EqualAngle && a[0] != a[1])
      throw std::invalid_argument("--map equal-angle needs a spheroid: --axes A,A,C");
  }
  if (s.shedding != "kernel" && s.shedding != "offset")
    throw std::invalid_argument("--shedding: unknown '" + s.shedding + "' (kernel or offset)");
  if (!(s.shed_layer > 0)) throw std::invalid_argument("--shed-layer must be positive");
  require("--shed-layer", s.shed_layer, kShedLayer, "units of h");
  require("--shed-offset", s.shed_offset, kShedOffset, "units of h");
  free_stream(s);  // a bad --stream is an error before anything runs
  if (s.every < 0 || s.checkpoint_every < 0 || s.projections < 0)
    throw std::invalid_argument("--every, --checkpoint-every and --projections must be >= 0");
  if (s.projection_cells < 2 || s.projection_cells > 4096)
    throw std::invalid_argument("--projection-cells must be in 2..4096");
  if (!(s.diameter >= 0) || !(s.spacing >= 0) || !(s.wall_core >= 0) || !(s.sheet_core >= 0) ||
      !(s.shed_core >= 0))
    throw std::invalid_argument("--diameter, --spacing and the core radii must be >= 0");
  require("--min-wall", s.min_wall, kFraction, "units of h");
  require("--merge", s.merge, kFraction, "units of h");
  require("--remove", s.remove, kRemove, "a fraction of the largest |Gamma|");
  require("--bem-tolerance", s.bem_tolerance, kBemTolerance, "GMRES's relative residual");
  require("--bem-cluster", s.bem_cluster, kBemCluster, "panels");
  require("--bem-coarse", s.bem_coarse, kBemCoarse, "aggregates");
  // A generated body's panels must fit before they are made.
  if (s.mesh.empty()) {
    const long double panels = 20.0L * s.frequency * s.frequency;
    cli::require_memory(
        "--frequency " + std::to_string(s.frequency) + " (" + short_text(panels) + " panels)",
        panel_bytes(s, panels));
  }
}

MemoryEstimate estimate_memory(const Settings& s, long double area, long double panels, double h,
                               double nu) {
  MemoryEstimate e;
  e.panels = panels;
  if (!s.restart.empty()) {
    std::error_code error;
    const auto bytes = std::filesystem::file_size(s.restart, error);
    if (!error) e.particles_start = static_cast<long double>(bytes) / kCheckpointBytesPerParticle;
  }
  const bool runs = !s.bem_only && s.bench_diffusion == 0 && s.bench_velocity == 0;
  const long double hl = h, steps = runs ? s.steps : 0;
  // Patches of panels of about h^2 (shedding_patches: k-d tree leaves of round(h^2 / mean area)).
  e.patches = panels / std::max(1.0L, std::round(hl * hl * panels / area));
  // Each sub-step of dt / 2 sheds the profile of s = sqrt(2 nu dt / 2) in layers of
  // --shed-layer h (heat_kernel_layers), or one particle (--shedding offset).
  e.layers = s.shedding == "offset"
                 ? 1.0L
                 : std::floor(kProfileReach * std::sqrt(static_cast<long double>(nu) * s.dt) /
                              (static_cast<long double>(s.shed_layer) * hl)) +
                       1;
  e.shed = steps * 2 * e.patches * e.layers;
  e.layer_thickness = std::sqrt(2.0L * nu * s.dt * steps);
  e.layer_fill = steps > 0 ? area * std::max(hl, e.layer_thickness) / (hl * hl * hl) : 0.0L;
  e.particles = e.particles_start + std::max(e.shed, e.layer_fill);
  e.bytes = e.particles * kBytesPerParticle + panel_bytes(s, panels);
  return e;
}

void check_on_body(const Settings& s, const bodies::Surface& surface) {
  Settings widest = s;
  widest.diameter = 0;
  const double width = reference_diameter(widest, surface), d = reference_diameter(s, surface);
  if (!kScale.contains(width))
    throw std::invalid_argument("the body's largest width " + short_text(width) +
                                " is out of range " + range_text(kScale) +
                                " (the app's units are of order one)");
  if (s.diameter > 0)
    require("--diameter", s.diameter, "D / W", s.diameter / width, kDiameter,
            "W = " + short_text(width) + ", the body's largest width");
  const double u = bodies::norm(free_stream(s));
  require("--dt", s.dt, "dt U / D", s.dt * u / d, kDt,
          "U = " + short_text(u) + ", D = " + short_text(d));
  const double nu = viscosity(s, d), h = particle_spacing(s, nu);
  if (s.spacing > 0)
    require("--spacing", s.spacing, "h / D", h / d, kSpacing,
            "D = " + short_text(d) + ": at least 4 particles across the body");
  else
    require("--dt", s.dt, "h / D", h / d, kSpacing,
            "h = sqrt(8 nu dt) = " + short_text(h) + " with nu = U D / Re = " + short_text(nu) +
                ", D = " + short_text(d) +
                ": at least 4 particles across the body; a smaller --dt or a --spacing");
  const auto core = [&](const char* option, double value) {
    if (value != 0) require(option, value, "core / h", value / h, kCore, "h = " + short_text(h));
  };
  core("--shed-core", s.shed_core);
  core("--sheet-core", s.sheet_core);
  core("--wall-core", s.wall_core);
  const MemoryEstimate e =
      estimate_memory(s, surface.total_area, static_cast<long double>(surface.size()), h, nu);
  std::string what = "the run (" + short_text(e.panels) + " panels; h = " + short_text(h) +
                     (s.spacing > 0 ? " (--spacing)" : " (from --re and --dt)");
  if (e.particles_start > 0)
    what += "; about " + short_text(e.particles_start) + " particles from --restart";
  if (e.particles > e.particles_start)
    what += "; about " + short_text(e.particles - e.particles_start) + " particles after " +
            std::to_string(s.steps) + " --steps: " + short_text(e.shed) + " shed (" +
            short_text(e.patches) + " patches of h^2 times " + short_text(e.layers) +
            " layers of the profile, --shed-layer " + number_text(s.shed_layer) +
            ", twice a step), " + short_text(e.layer_fill) +
            " on the lattice of h in the layer next to the wall, diffused to " +
            short_text(e.layer_thickness);
  what += "; " + short_text(kBytesPerParticle) + " bytes a particle)";
  cli::require_memory(what, e.bytes);
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
  o.wall_diffusion = s.shedding == "kernel";
  o.shedding.offset = s.shed_offset;
  o.shedding.layer = s.shed_layer;
  o.shedding.core_radius = s.shed_core;
  o.control.merge_distance = s.merge;
  o.control.remove_threshold = s.remove;
  o.stretching = parse_stretching(s.stretching);
  o.relaxation = s.relaxation;
  o.relaxation_rate = s.relaxation_rate;
  o.vrm.backend = s.vrm_backend == "same" ? particles : parse_backend(s.vrm_backend);
  return o;
}

bodies::BemOptions bem_options(const Settings& s, const SolverOptions& solver) {
  bodies::BemOptions o;
  o.method = s.dense ? bodies::BemMethod::Dense : bodies::BemMethod::Gmres;
  o.tolerance = s.bem_tolerance;
  o.cluster_size = s.bem_cluster;
  o.coarse_aggregates = s.bem_coarse;
  o.solver = solver;
  return o;
}

std::string case_name(const Settings& s) {
  if (!s.mesh.empty()) return "mesh";
  return s.body + "-f" + std::to_string(s.frequency);
}

}  // namespace vortex::body_app
