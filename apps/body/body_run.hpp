#pragma once
// A vortex-body run: the boundary-element sheet at t = 0+ (or a checkpoint's state), then the time
// steps with their CSV rows, .pvd frames, checkpoints, projections and progress lines, and at the
// end the plots and the JSON summary.

#include "body_settings.hpp"
#include "vortex/options.hpp"

namespace vortex::body_app {

// Runs the simulation of the settings; returns the exit status.
int run_simulation(const Settings& s, const SolverOptions& solver);

}  // namespace vortex::body_app
