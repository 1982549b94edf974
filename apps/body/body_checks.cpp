// vortex-body's checks of its options before anything is written: each value within its range,
// and the estimated memory of the run within what the machine allows.

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

using cli::number_text;
using cli::short_text;

constexpr cli::RangeCheck<std::invalid_argument> require;

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
  const int coarse = s.bem_coarse < 0 ? 64 : s.bem_coarse;             // auto: at most 64
  return panels * (kBytesPerPanel + 64.0L * s.bem_cluster + 96.0L * coarse);
}

}  // namespace

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
  cli::check_time_step_options(s.stretching, s.relaxation, s.relaxation_rate, s.dt);
  // Options that take `same` or one of a list: the option named with what it accepts.
  auto same_or = [](const std::string& value, const char* option, auto parse) {
    if (value == "same") return;
    try {
      parse(value);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(option) + ": " + e.what() + ", or same");
    }
  };
  same_or(s.vrm_backend, "--vrm-backend", parse_backend);
  same_or(s.control_backend, "--control-backend", parse_backend);
  same_or(s.bem_precision, "--bem-precision", parse_precision);
  parse_particle_order(s.particle_order);
  require("--bench-diffusion", s.bench_diffusion, kBenchRepeats);
  if (s.bench_diffusion > 0 && s.restart.empty())
    throw std::invalid_argument("--bench-diffusion needs --restart (the state to diffuse)");
  require("--bench-velocity", s.bench_velocity, kBenchRepeats);
  if (s.bench_velocity > 0 && s.restart.empty())
    throw std::invalid_argument("--bench-velocity needs --restart (the particles to evaluate)");
  require("--bench-bem", s.bench_bem, kBenchRepeats);
  if ((s.bench_bem > 0) + (s.bench_diffusion > 0) + (s.bench_velocity > 0) > 1)
    throw std::invalid_argument(
        "--bench-bem, --bench-diffusion and --bench-velocity: choose one benchmark a run");
  require("--bench-sample", s.bench_sample, kBenchSample);
  if (!(s.stop_after >= 0)) throw std::invalid_argument("--stop-after must be >= 0 seconds");
  require("--stop-after", s.stop_after, kSeconds, "seconds");
  cli::check_shared(cli::SharedOption::Progress, s.progress);
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
  cli::parse_merge_into(s.merge_into);  // throws, naming the accepted values
  if (!(s.shed_layer > 0)) throw std::invalid_argument("--shed-layer must be positive");
  require("--shed-layer", s.shed_layer, kShedLayer, "units of h");
  require("--shed-offset", s.shed_offset, kShedOffset, "units of h");
  free_stream(s);  // a bad --stream is an error before anything runs
  cli::check_shared(cli::SharedOption::Every, s.every);
  if (s.checkpoint_every < 0 || s.projections < 0)
    throw std::invalid_argument("--checkpoint-every and --projections must be >= 0");
  if (s.projection_cells < 2 || s.projection_cells > 4096)
    throw std::invalid_argument("--projection-cells must be in 2..4096");
  if (s.field_grid != 0) {
    require("--field-grid", s.field_grid, kFieldGrid, "cells, or 0");
    if (s.projections == 0)
      throw std::invalid_argument(
          "--field-grid writes at the steps of --projections K: give --projections too");
    // The grid's points, their velocity and gradient in double, the file's floats and the
    // solver's targets: 565 bytes a point measured (discoid rehearsal, CPU), at most N^3 points.
    const long double points = std::pow(static_cast<long double>(s.field_grid), 3);
    cli::require_memory("--field-grid " + std::to_string(s.field_grid) + " (at most " +
                            short_text(points) + " points of 600 bytes)",
                        600 * points);
  }
  if (!(s.diameter >= 0) || !(s.spacing >= 0) || !(s.wall_core >= 0) || !(s.sheet_core >= 0) ||
      !(s.shed_core >= 0))
    throw std::invalid_argument("--diameter, --spacing and the core radii must be >= 0");
  require("--min-wall", s.min_wall, kFraction, "units of h");
  require("--wall-exact-reach", s.wall_exact_reach, kWallReach, "largest panel diameters");
  require("--outflow", s.outflow, kOutflow, "a length downstream of the body");
  if (s.max_growth != 0) require("--max-growth", s.max_growth, kMaxGrowth, "a factor, or 0");
  cli::check_shared(cli::SharedOption::MergeDistance, s.merge_distance);
  cli::check_shared(cli::SharedOption::RemoveThreshold, s.remove_threshold);
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
  const bool runs =
      !s.bem_only && s.bench_diffusion == 0 && s.bench_velocity == 0 && s.bench_bem == 0;
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

}  // namespace vortex::body_app
