#include "body_run.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "body_case.hpp"
#include "body_output.hpp"
#include "field_grid.hpp"
#include "memory_check.hpp"
#include "projections.hpp"
#include "vortex/bodies/bem_solver.hpp"
#include "vortex/bodies/ellipsoid_flow.hpp"
#include "vortex/bodies/sheet.hpp"
#include "vortex/bodies/wall.hpp"
#include "vortex/file_io.hpp"
#include "vortex/solver.hpp"

namespace vortex::body_app {

namespace {

using Clock = std::chrono::steady_clock;

// The sheet and the impulse at t = 0+ against the exact potential flow (generated sphere or
// ellipsoid only).
void report_exact(const Settings& s, bodies::BodyFlow& flow, const bodies::Vec3& impulse) {
  if (!s.mesh.empty()) return;
  double a = s.radius, b = s.radius, c = s.radius;
  if (s.body == "ellipsoid") {
    const auto axes = cli::split_list(s.axes);
    a = cli::parse_double("--axes", axes[0]);
    b = cli::parse_double("--axes", axes[1]);
    c = cli::parse_double("--axes", axes[2]);
  }
  const bodies::EllipsoidFlow exact(a, b, c);
  const bodies::Vec3 stream = free_stream(s);
  const bodies::SheetError e =
      bodies::sheet_error(flow.bem().surface(), flow.bem().gamma(), exact, stream);
  std::printf("sheet against the exact solution: mean error %.4g, max %.4g (of max |gamma|)\n",
              e.mean, e.max);
  const bodies::Vec3 expected = exact.impulse(stream);
  std::printf("impulse at t = 0+ exact: (%.6g, %.6g, %.6g), k = (%.5g, %.5g, %.5g), error %.3g\n",
              expected.x, expected.y, expected.z, exact.k()[0], exact.k()[1], exact.k()[2],
              bodies::norm(impulse - expected) / bodies::norm(expected));
}

void report_bem(const Settings& s, bodies::BodyFlow& flow, const RunState& r) {
  const bodies::BemStats& b = flow.bem().stats();
  std::printf(
      "BEM: %zu panels, %d iterations, residual %.3g, max |u.n| %.3g, mean |u.n| %.3g, "
      "%.2f s\n",
      flow.bem().surface().size(), b.iterations, b.residual, b.max_normal_velocity,
      b.mean_normal_velocity, b.seconds);
  std::printf("impulse at t = 0+: (%.6g, %.6g, %.6g)", r.impulse_t0.x, r.impulse_t0.y,
              r.impulse_t0.z);
  if (s.body == "sphere" && s.mesh.empty())
    std::printf(", -2 pi a^3 U = %.6g",
                -2 * M_PI * std::pow(s.radius, 3) * bodies::norm(free_stream(s)));
  std::printf("\nsheet total vorticity: %.3g\n", bodies::norm(b.sheet_vorticity));
  std::printf("BEM set-up: operator %.2f s, preconditioner %.2f s (%d coarse aggregates)\n",
              flow.bem().op().setup_seconds(), flow.bem().preconditioner_seconds(),
              flow.bem().coarse_aggregates());
  report_exact(s, flow, r.impulse_t0);
}

// Panels much wider than h leave the sheet's field at the particles next to the wall spiky (its
// points are cored with h): the discoid at Re = 1000 blew up at step 4 with panels 3.9 h
// across and the classical stretching, and ran with 2.6 h
// (docs/journal/validation-to-2026-11-27.md, D1).
void warn_coarse_panels(const Settings& s, const bodies::Surface& surface, double h) {
  const double width = std::sqrt(surface.total_area / static_cast<double>(surface.size()));
  if (s.bem_only || width <= 3 * h) return;
  std::fprintf(stderr,
               "vortex-body: warning: the panels are %.2g h across (the root of their mean area), "
               "more than 3 h: the sheet's field next to the wall is under-resolved and the "
               "%s stretching may blow up; refine the mesh (--frequency)\n",
               width / h, s.stretching.c_str());
}

// One time step and its CSV row.
StepRecord advance(const Settings& s, bodies::BodyFlow& flow, RunState& r, double area,
                   const WakePlane& wake_past) {
  StepRecord rec;
  rec.stats = flow.step(r.particles, s.dt);
  const bodies::Vec3 impulse = flow.impulse(r.particles);
  rec.coefficients =
      bodies::force_from_impulse(r.impulse, impulse, s.dt, free_stream(s), {0, 0, 1}, area);
  rec.pressure =
      bodies::force_coefficients(rec.stats.pressure_force, free_stream(s), {0, 0, 1}, area);
  rec.friction =
      bodies::force_coefficients(rec.stats.friction_force, free_stream(s), {0, 0, 1}, area);
  rec.budget = bodies::impulse_budget(r.impulse, impulse, rec.stats.correction_impulse,
                                      rec.stats.pressure_force + rec.stats.friction_force, s.dt,
                                      free_stream(s));
  r.impulse = impulse;
  r.time += s.dt;
  rec.step = ++r.step;
  rec.time = r.time;
  rec.force_time = r.time - s.dt / 2;
  rec.particles = r.particles.size();
  rec.impulse = impulse;
  rec.vorticity = flow.total_vorticity(r.particles);
  rec.sheet_vorticity = bodies::sheet_total_vorticity(flow.bem().surface(), flow.sheet());
  rec.host_bytes = cli::resident_memory();
  // The strongest particle and where it is (where a strength grows out of bounds).
  const ParticleSet& p = r.particles;
  const std::size_t at = strongest(p);
  if (at < p.size()) {
    rec.max_strength = p.strength(at);
    rec.strongest = {p.x[at], p.y[at], p.z[at]};
    rec.strongest_wall_distance = flow.wall().closest(rec.strongest).distance;
  }
  const WakeCentre wake = wake_centre(p, wake_past);
  rec.wake = wake.centre;
  rec.wake_strength = wake.strength;
  return rec;
}

void print_progress(const StepRecord& rec, long last_step, double elapsed) {
  std::printf(
      "step %ld/%ld t = %.4g N = %zu C_D = %.4g C_L = %.4g BEM %d it, %.1f s/step, "
      "%.0f s elapsed, memory %.0f B/particle host, %.0f B/particle GPU\n",
      rec.step, last_step, rec.time, rec.particles, rec.coefficients.cd, rec.coefficients.cl,
      rec.stats.bem_iterations, rec.stats.seconds_total, elapsed,
      per_particle(rec.host_bytes, rec.particles),
      per_particle(rec.stats.device_bytes, rec.particles));
  std::fflush(stdout);
}

// The state to start from: a checkpoint, or the potential flow at t = 0+ (written as frame 0).
RunState initial_state(const Settings& s, const bodies::BodyCheckpoint* ck, bodies::BodyFlow& flow,
                       BodyOutput& out) {
  if (ck) return checkpoint_state(*ck, flow);
  RunState r;
  flow.solve_sheet(r.particles);
  r.impulse = r.impulse_t0 = flow.impulse(r.particles);
  if (s.every > 0) out.write_frame(0, 0, r.particles, flow);
  return r;
}

// The boundary-element solves' iterations, count and largest residual over the steps run.
struct StepTotals {
  double iterations;
  long solves;
  double residual_max;
};

// The projections of the particles of r (and with --field-grid the field on its grid).
void write_projected(const Settings& s, bodies::BodyFlow& flow, const RunState& r) {
  if (write_projections(r.particles, s.output, r.step, s.projection_cells) && !s.no_plot &&
      !plot_projections(s.output, r.step, r.time))
    std::fprintf(stderr, "vortex-body: warning: gnuplot failed, no projection picture\n");
  if (s.field_grid > 0)
    write_field_grid(r.particles, flow, free_stream(s), s.output, r.step, r.time, s.field_grid);
}

// The time steps, with their rows, frames, checkpoints, projections and progress lines, until
// the last step or the wall-time limit (--stop-after, which leaves a checkpoint).
StepTotals run_steps(const Settings& s, const BodyCase& c, bodies::BodyFlow& flow, RunState& r,
                     BodyOutput& out, Clock::time_point start) {
  StepTotals t{0, 0, flow.bem().stats().residual};
  auto last_progress = Clock::now();
  const long last_step = r.step + (s.bem_only ? 0 : s.steps);
  const WakePlane wake_past = wake_plane(c.surface, free_stream(s));
  while (r.step < last_step) {
    const StepRecord rec = advance(s, flow, r, M_PI * c.diameter * c.diameter / 4, wake_past);
    out.write_row(rec);
    t.iterations += rec.stats.bem_iterations;
    t.solves += rec.stats.bem_solves;
    t.residual_max = std::max(t.residual_max, rec.stats.bem_residual_max);
    if (s.every > 0 && r.step % s.every == 0) out.write_frame(r.step, r.time, r.particles, flow);
    // Also at the last step, so that a run asked for more steps later continues from its end.
    const bool checkpointed =
        s.checkpoint_every > 0 && (r.step % s.checkpoint_every == 0 || r.step == last_step);
    if (checkpointed) save_checkpoint(s, c, flow, r);
    if (s.projections > 0 && (r.step % s.projections == 0 || r.step == last_step))
      write_projected(s, flow, r);
    const auto now = Clock::now();
    if (!s.quiet && s.progress > 0 &&
        (r.step == last_step ||
         std::chrono::duration<double>(now - last_progress).count() >= s.progress)) {
      last_progress = now;
      print_progress(rec, last_step, std::chrono::duration<double>(now - start).count());
    }
    // A wall-time limit (a batch slot): stop where the next step would end past it, with a
    // checkpoint to continue from.
    const double elapsed = std::chrono::duration<double>(now - start).count();
    if (s.stop_after > 0 && r.step < last_step &&
        elapsed + rec.stats.seconds_total > s.stop_after) {
      const std::string path =
          checkpointed ? checkpoint_path(s, r.step) : save_checkpoint(s, c, flow, r);
      std::printf(
          "stopped after %.0f s at step %ld of %ld (t = %.4g, --stop-after %g): continue "
          "with --restart %s\n",
          elapsed, r.step, last_step, r.time, s.stop_after, path.c_str());
      break;
    }
  }
  return t;
}

}  // namespace

int run_simulation(const Settings& s, const SolverOptions& so) {
  const BodyCase c = make_case(s);
  const bool restart = !s.restart.empty();
  const bodies::BodyCheckpoint ck = restart ? read_restart(s, c) : bodies::BodyCheckpoint{};
  const bodies::BodyFlowOptions options = flow_options(s, c.nu, c.h, so.backend);
  bodies::validate(options);  // bad options or an outflow inside the body's size: nothing written
  bodies::outflow_plane(c.surface, options);
  // A path that cannot be written fails here, before the first step.
  check_output_paths(s.output, s.json);
  Solver solver(so);
  bodies::BodyFlow flow(c.surface, bem_options(s, so), solver, options);
  const auto start = Clock::now();
  BodyOutput out(s.output, restart, ck.step, ck.time);
  RunState r = initial_state(s, restart ? &ck : nullptr, flow, out);
  if (!s.quiet) print_header(s, c, so.backend);
  warn_coarse_panels(s, c.surface, c.h);
  if (!restart && (s.bem_only || !s.quiet)) report_bem(s, flow, r);
  // A checkpoint's own projections and field, without a step.
  if (restart && s.steps == 0 && !s.bem_only && s.projections > 0) write_projected(s, flow, r);
  const StepTotals totals = run_steps(s, c, flow, r, out, start);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  // Every output checked before the summary says the run completed.
  out.close();
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw FileError(std::string("standard output: cannot write: ") +
                    (errno ? std::strerror(errno) : "a write failed"));
  if (!s.no_plot && !s.bem_only && !plot_coefficients(s.output, s.re, s.body == "sphere"))
    std::fprintf(stderr, "vortex-body: warning: gnuplot failed, no plots\n");
  if (!s.json.empty())
    write_summary(s, so.backend, c.surface.size(),
                  {r.step, r.time, r.particles.size(), r.impulse_t0}, out,
                  totals.solves ? totals.iterations / static_cast<double>(totals.solves)
                                : flow.bem().stats().iterations,
                  totals.residual_max, seconds);
  return 0;
}

}  // namespace vortex::body_app
