#include "ring_simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "ring_diffusion.hpp"
#include "vortex/solver.hpp"
#include "vortex/time_integration.hpp"

namespace vortex::ring_app {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

Diffusion ring_diffusion(const Settings& s, const RunPlan& plan, const RingSetup& setup) {
  Diffusion d = lattice_diffusion(s.diffusion == "pse", setup.spacing, s.remove_threshold);
  d.vrm.core_radius = setup.sigma;
  // A particle's share for a new neighbour is about s2 / 2, s2 = 2 nu dt / h^2: inserting around
  // particles weaker than 2 E_remove / s2 only makes particles that are removed right away.
  const double s2 = plan.viscous ? 2 * plan.nu * s.dt / (setup.spacing * setup.spacing) : 1.0;
  d.vrm.insert_threshold = s.insert_threshold > 0
                               ? s.insert_threshold
                               : std::clamp(2 * s.remove_threshold / s2, 1e-4, 1e-2);
  d.control.merge_distance = s.merge_distance;
  d.control.max_particles = static_cast<std::size_t>(std::max(0, s.max_particles));
  return d;
}

// Diffusion and particle control after a step: always when viscous, else only when asked for.
void diffuse_and_control(const Settings& s, const RunPlan& plan, const Diffusion& diffusion,
                         ParticleSet& particles, RunTotals& totals) {
  if (plan.viscous) {
    const auto start = Clock::now();
    totals.inserted += diffuse(particles, plan.nu, s.dt, diffusion);
    totals.removed += control_particles(particles, diffusion.control).removed;
    totals.diffusion_seconds += seconds_since(start);
  } else if (s.merge_distance_given || s.max_particles > 0) {
    totals.removed += control_particles(particles, diffusion.control).removed;
  }
}

// Prints a progress line every s.progress seconds and after the last step.
class Progress {
 public:
  explicit Progress(const Settings& s) : s_(s), start_(Clock::now()), last_(start_) {}
  Clock::time_point start() const { return start_; }

  void step_done(int step, double t, std::size_t n, double z) {
    const auto now = Clock::now();
    if (s_.quiet || s_.progress <= 0) return;
    if (std::chrono::duration<double>(now - last_).count() < s_.progress && step + 1 != s_.steps)
      return;
    last_ = now;
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    std::printf("  step %5d/%d  t %.4f  N %7zu  Z %.5f  %.3f s/step  (%.0f s)\n", step + 1,
                s_.steps, t, n, z, elapsed / (step + 1), elapsed);
    std::fflush(stdout);
  }

 private:
  const Settings& s_;
  const Clock::time_point start_;
  Clock::time_point last_;
};

}  // namespace

RunTotals run_ring(const Settings& s, const RunPlan& plan, RingSetup& setup, Recorder& recorder) {
  Solver solver(plan.solver);
  TimeIntegratorOptions integrator_options;
  integrator_options.scheme = plan.scheme;
  integrator_options.stretching = plan.stretching;
  integrator_options.relaxation = plan.relaxation;
  integrator_options.relaxation_rate = plan.relaxation_rate;
  TimeIntegrator integrator(solver, integrator_options);
  const Diffusion diffusion = ring_diffusion(s, plan, setup);
  ParticleSet& particles = setup.particles;
  RunTotals totals;
  Progress progress(s);
  double t = 0;
  for (int step = 0; step < s.steps; ++step) {
    const ParticleSet before = particles;
    const VelocityField& field = integrator.step(particles, s.dt);
    recorder.record(step, t, before, field);
    t = (step + 1) * s.dt;
    diffuse_and_control(s, plan, diffusion, particles, totals);
    progress.step_done(step, t, particles.size(), recorder.history().positions.back());
  }
  recorder.record(s.steps, t, particles, integrator.evaluate(particles));
  totals.seconds = seconds_since(progress.start());
  totals.t = t;
  totals.n_final = particles.size();
  return totals;
}

int simulate_ring(Settings& s) {
  const RunPlan plan = plan_run(s);
  RingSetup setup = make_setup(s, plan);
  Recorder recorder(s, setup, plan.every);
  if (!s.quiet) print_setup(s, plan, setup);
  const RunTotals totals = run_ring(s, plan, setup, recorder);
  report_ring(s, setup, recorder.history(), totals);
  return 0;
}

}  // namespace vortex::ring_app
