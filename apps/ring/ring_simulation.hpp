#pragma once
// The time loop of a ring run: Runge-Kutta steps with vortex stretching, then (when viscous)
// diffusion and particle control, recording every step.

#include "ring_output.hpp"
#include "ring_record.hpp"
#include "ring_settings.hpp"
#include "ring_setup.hpp"

namespace vortex::ring_app {

// Advances setup.particles by s.steps steps.
RunTotals run_ring(const Settings& s, const RunPlan& plan, RingSetup& setup, Recorder& recorder);

}  // namespace vortex::ring_app
