#pragma once
// A ring run: the plan and the rings, the time loop (Runge-Kutta steps with vortex stretching,
// then, when viscous, diffusion and particle control, recording every step) and the report.

#include "ring_output.hpp"
#include "ring_record.hpp"
#include "ring_settings.hpp"
#include "ring_setup.hpp"
#include "ring_steps.hpp"

namespace vortex::ring_app {

// Advances this process's share of setup.particles by s.steps steps; records where `recorder` is
// given (the process that records).
RunTotals run_ring(const Settings& s, const RunPlan& plan, RingSetup& setup, RingSteps& steps,
                   Recorder* recorder);

// Sets up the rings, advances them with `steps` and reports (report_ring) where steps records.
int simulate_with(Settings& s, const RunPlan& plan, RingSteps& steps);

// The ring mode of vortex-ring: plans the run (plan_run), then simulate_with in this process or,
// with --mpi, on the ranks. Returns the exit status.
int simulate_ring(Settings& s);

}  // namespace vortex::ring_app
