#pragma once
// A ring run: the plan and the rings, the time loop (Runge-Kutta steps with vortex stretching,
// then, when viscous, diffusion and particle control, recording every step) and the report.

#include "ring_output.hpp"
#include "ring_record.hpp"
#include "ring_settings.hpp"
#include "ring_setup.hpp"

namespace vortex::ring_app {

// Advances setup.particles by s.steps steps.
RunTotals run_ring(const Settings& s, const RunPlan& plan, RingSetup& setup, Recorder& recorder);

// The ring mode of vortex-ring: plans the run (plan_run), sets up the rings, advances them and
// reports (report_ring). Returns the exit status.
int simulate_ring(Settings& s);

}  // namespace vortex::ring_app
