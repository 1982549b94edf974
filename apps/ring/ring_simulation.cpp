#include "ring_simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "ring_diffusion.hpp"
#include "toolkit_cli.hpp"

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
  d.control.merge_into = cli::parse_merge_into(s.merge_into);
  d.control.max_particles = static_cast<std::size_t>(std::max(0, s.max_particles));
  return d;
}

// Diffusion and particle control after a step: always when viscous, else only when asked for.
void diffuse_and_control(const Settings& s, const RunPlan& plan, const Diffusion& diffusion,
                         RingSteps& steps, ParticleSet& particles, RunTotals& totals) {
  if (plan.viscous) {
    const auto start = Clock::now();
    totals.inserted += steps.diffuse(particles, plan.nu, s.dt, diffusion);
    totals.removed += steps.control(particles, diffusion.control);
    totals.diffusion_seconds += seconds_since(start);
  } else if (s.merge_distance_given || s.max_particles > 0) {
    totals.removed += steps.control(particles, diffusion.control);
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

RunTotals run_ring(const Settings& s, const RunPlan& plan, RingSetup& setup, RingSteps& steps,
                   Recorder* recorder) {
  TimeIntegrator& integrator = steps.integrator();
  const Diffusion diffusion = ring_diffusion(s, plan, setup);
  ParticleSet particles = steps.share(setup.particles);
  RunTotals totals;
  Progress progress(s);
  double t = 0;
  const ParticleSet* all = nullptr;
  const VelocityField* all_field = nullptr;
  for (int step = 0; step < s.steps; ++step) {
    steps.start_step(particles);
    const ParticleSet before = particles;
    const VelocityField& field = integrator.step(particles, s.dt);
    steps.whole(before, field, all, all_field);
    if (recorder) recorder->record(step, t, *all, *all_field);
    t = (step + 1) * s.dt;
    diffuse_and_control(s, plan, diffusion, steps, particles, totals);
    const std::size_t n = steps.total(particles.size());
    if (recorder) progress.step_done(step, t, n, recorder->history().positions.back());
  }
  steps.whole(particles, integrator.evaluate(particles), all, all_field);
  if (recorder) recorder->record(s.steps, t, *all, *all_field);
  totals.seconds = seconds_since(progress.start());
  totals.t = t;
  totals.n_final = steps.total(particles.size());
  return totals;
}

int simulate_with(Settings& s, const RunPlan& plan, RingSteps& steps) {
  RingSetup setup = make_setup(s, plan);
  std::optional<Recorder> recorder;
  if (steps.records()) {
    recorder.emplace(s, setup, plan.every);
    if (!s.quiet) print_setup(s, plan, setup);
  }
  const RunTotals totals = run_ring(s, plan, setup, steps, recorder ? &*recorder : nullptr);
  if (recorder) report_ring(s, setup, recorder->history(), totals);
  return 0;
}

int simulate_ring(Settings& s) {
  const RunPlan plan = plan_run(s);
  if (s.mpi) return run_on_ranks(s, plan);
  const std::unique_ptr<RingSteps> steps = process_steps(plan);
  return simulate_with(s, plan, *steps);
}

}  // namespace vortex::ring_app
