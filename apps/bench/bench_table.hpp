#pragma once
// vortex-bench's table mode: the generated case, each run's stage times, rates and errors against
// a double-precision direct sum at a sample of targets as a table, and optionally the results as
// JSON and the case as a particle file.

#include "bench_settings.hpp"

namespace vortex::cli {

// Runs the table mode of the settings; returns the exit status.
int run_table(const BenchSettings& s);

}  // namespace vortex::cli
