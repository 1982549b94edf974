#include "body_settings.hpp"

#include <cmath>
#include <stdexcept>

#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/mesh_io.hpp"
#include "vortex/time_integration.hpp"

namespace vortex::body_app {

void add_options(cli::OptionParser& p, Settings& s, cli::SolverCli& solver) {
  p.add("--case", "FILE", "JSON case file (flat object of these options)", s.case_file, "-");
  p.add("--body", "sphere|ellipsoid", "generated body", s.body);
  p.add("--mesh", "FILE", "closed, outward-oriented mesh (.stl or .vtp) instead of --body", s.mesh,
        "-");
  p.add("--frequency", "F", "icosphere frequency (20 F^2 panels)", s.frequency);
  p.add("--radius", "R", "sphere radius", s.radius);
  p.add("--axes", "A,B,C", "ellipsoid semi-axes along x, y, z", s.axes);
  p.add("--map", "affine|equal-angle", "sphere-to-ellipsoid map", s.map);
  p.add("--diameter", "D", "reference diameter (0: the body's largest width)", s.diameter);
  p.add("--re", "RE", "Reynolds number U D / nu", s.re);
  p.add("--dt", "DT", "time step", s.dt);
  p.add("--steps", "N", "time steps", s.steps);
  p.add("--angle", "DEG", "stream angle from x towards z, degrees", s.angle);
  p.add("--speed", "U", "free-stream speed", s.speed);
  p.add("--stream", "UX,UY,UZ", "free stream in any direction (instead of --angle, --speed)",
        s.stream, "-");
  p.add("--spacing", "H", "particle spacing h (0: sqrt(8 nu dt))", s.spacing);
  p.add("--shedding", "kernel|offset",
        "wall diffusion: half-space heat kernel (layers of the shed profile, image drift), or "
        "one particle per patch at --shed-offset",
        s.shedding);
  p.add("--shed-layer", "F", "layer thickness of the shed profile, units of h", s.shed_layer);
  p.add("--shed-offset", "F",
        "height of shed particles above the wall, units of h (--shedding "
        "offset)",
        s.shed_offset);
  p.add("--shed-core", "S", "core radius of shed particles (0: h)", s.shed_core);
  p.add("--sheet-core", "S", "core of the sheet as a source for particles (0: h)", s.sheet_core);
  p.add("--wall-core", "S", "largest core of particles in the BEM right-hand side (0: h/2)",
        s.wall_core);
  p.add_flag("--wall-cores",
             "the BEM sees particles next to the wall as cores at its quadrature points only "
             "(no exact point-vortex panel averages)",
             s.wall_cores);
  p.add("--min-wall", "F", "push particles out to this distance from the wall, units of h",
        s.min_wall);
  p.add("--merge", "F", "merge particles closer than F h", s.merge);
  p.add("--remove", "F", "remove particles weaker than F * max |Gamma|", s.remove);
  p.add("--stretching", "NAME", "vortex stretching: classical, transpose, none", s.stretching);
  p.add("--relaxation", "F",
        "turn each particle's strength by this fraction toward the field's vorticity at the start "
        "of every step (0: none)",
        s.relaxation);
  p.add("--relaxation-rate", "R",
        "the same at a rate per unit time: the fraction R dt each step, so that runs at different "
        "time steps relax alike (1.25 in V2 of docs/VALIDATION.md; 0: none)",
        s.relaxation_rate);
  p.add("--vrm-backend", "same|auto|cpu|cuda",
        "where the VRM's first round solves the particles away from the wall (same: --backend)",
        s.vrm_backend);
  p.add("--bem-tolerance", "TOL", "GMRES relative residual", s.bem_tolerance);
  p.add("--bem-cluster", "N", "panels per block of GMRES's block-Jacobi preconditioner",
        s.bem_cluster);
  p.add("--bem-coarse", "N",
        "aggregates of the preconditioner's coarse level (smooth sheet fields; 0: none)",
        s.bem_coarse);
  p.add_flag("--bem-only", "solve the boundary elements at t = 0+ and stop", s.bem_only);
  p.add_flag("--dense", "dense LU instead of GMRES (small meshes)", s.dense);
  p.add("-o,--out", "DIR", "output folder", s.out);
  p.add("--json", "FILE", "write a JSON summary", s.json, "-");
  p.add("--every", "K", "write particles and surface every K steps (0: never)", s.every);
  p.add("--checkpoint-every", "K", "write a checkpoint every K steps (0: never)",
        s.checkpoint_every);
  p.add("--restart", "FILE", "continue from a checkpoint", s.restart, "-");
  p.add("--projections", "K",
        "every K steps and at the last, the integrated vorticity magnitude along z, y and x as "
        "grids and a PNG (0: never)",
        s.projections);
  p.add("--projection-cells", "N", "bins along the particles' longest extent", s.projection_cells);
  p.add("--bench-diffusion", "K",
        "with --restart: time K diffusion sub-steps (dt/2), each from the checkpoint's particles, "
        "print their median times and a digest of the result, and stop",
        s.bench_diffusion);
  p.add("--bench-velocity", "K",
        "with --restart: time K evaluations of the velocity and gradient of the checkpoint's "
        "particles (their own field, after a warm-up call) on the chosen backend, compare the "
        "last with a double-precision direct sum at --bench-sample particles, and stop",
        s.bench_velocity);
  p.add("--bench-sample", "S", "particles compared with the direct sum by --bench-velocity",
        s.bench_sample);
  p.add("--progress", "SECONDS", "progress line interval", s.progress);
  p.add("--stop-after", "SECONDS",
        "stop with a checkpoint after the last step that is expected (by the time of the step "
        "before) to end within this wall time; --restart continues (0: never)",
        s.stop_after);
  p.add_flag("--no-plot", "skip the PNG plots", s.no_plot);
  p.add_flag("--quiet", "no progress lines", s.quiet);
  solver.add_to(p);
}

void check(const Settings& s) {
  auto positive = [](double v, const char* name) {
    if (!(v > 0) || !std::isfinite(v))
      throw std::invalid_argument(std::string(name) + " must be positive, got " +
                                  std::to_string(v));
  };
  positive(s.re, "--re");
  positive(s.dt, "--dt");
  positive(s.speed, "--speed");
  positive(s.radius, "--radius");
  if (s.steps < 0) throw std::invalid_argument("--steps must be >= 0");
  parse_stretching(s.stretching);  // throws, naming the accepted values
  check_relaxation(s.relaxation, s.relaxation_rate, "--relaxation", "--relaxation-rate", s.dt,
                   "--dt");
  if (s.vrm_backend != "same") parse_backend(s.vrm_backend);
  if (s.bench_diffusion < 0) throw std::invalid_argument("--bench-diffusion must be >= 0");
  if (s.bench_diffusion > 0 && s.restart.empty())
    throw std::invalid_argument("--bench-diffusion needs --restart (the state to diffuse)");
  if (s.bench_velocity < 0) throw std::invalid_argument("--bench-velocity must be >= 0");
  if (s.bench_velocity > 0 && s.restart.empty())
    throw std::invalid_argument("--bench-velocity needs --restart (the particles to evaluate)");
  if (s.bench_sample < 1) throw std::invalid_argument("--bench-sample must be >= 1");
  if (!(s.stop_after >= 0) || !std::isfinite(s.stop_after))
    throw std::invalid_argument("--stop-after must be >= 0 seconds");
  if (s.frequency < 1) throw std::invalid_argument("--frequency must be >= 1");
  if (s.body != "sphere" && s.body != "ellipsoid")
    throw std::invalid_argument("--body: unknown body '" + s.body + "' (sphere or ellipsoid)");
  if (s.shedding != "kernel" && s.shedding != "offset")
    throw std::invalid_argument("--shedding: unknown '" + s.shedding + "' (kernel or offset)");
  if (!(s.shed_layer > 0)) throw std::invalid_argument("--shed-layer must be positive");
  free_stream(s);  // a bad --stream is an error before anything runs
  if (s.every < 0 || s.checkpoint_every < 0 || s.projections < 0)
    throw std::invalid_argument("--every, --checkpoint-every and --projections must be >= 0");
  if (s.projection_cells < 2 || s.projection_cells > 4096)
    throw std::invalid_argument("--projection-cells must be in 2..4096");
  if (!(s.diameter >= 0) || !(s.spacing >= 0) || !(s.wall_core >= 0) || !(s.sheet_core >= 0) ||
      !(s.shed_core >= 0))
    throw std::invalid_argument("--diameter, --spacing and the core radii must be >= 0");
}

bodies::Surface make_body_surface(const Settings& s) {
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

bodies::Vec3 free_stream(const Settings& s) {
  if (!s.stream.empty()) {
    const auto u = cli::split_list(s.stream);
    if (u.size() != 3) throw std::invalid_argument("--stream needs three components UX,UY,UZ");
    const bodies::Vec3 v{cli::parse_double("--stream", u[0]), cli::parse_double("--stream", u[1]),
                         cli::parse_double("--stream", u[2])};
    if (!(bodies::norm(v) > 0) || !std::isfinite(bodies::norm(v)))
      throw std::invalid_argument("--stream must be a finite, non-zero vector");
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
