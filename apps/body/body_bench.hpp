#pragma once
// vortex-body's benchmarks of one sub-step (--bench-diffusion, --bench-velocity), repeated from a
// checkpoint's state; they write nothing into the output folder.

#include "body_settings.hpp"
#include "vortex/options.hpp"

namespace vortex::body_app {

// Whether the settings ask for a benchmark (--bench-diffusion or --bench-velocity) instead of a
// run.
bool benchmark_mode(const Settings& s);
// Runs the benchmark of the settings on the checkpoint of --restart; returns the exit status.
int run_benchmark(const Settings& s, const SolverOptions& solver);

}  // namespace vortex::body_app
