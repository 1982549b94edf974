#pragma once
// vortex-bench's report mode (--report, --sweep): the founding paper's Figure 7 table and the
// treecode's parameter sweeps on this machine, into the output folder --out.

#include "bench_settings.hpp"

namespace vortex::cli {

// Runs the report and the sweeps of the settings; returns the exit status.
int run_report(const BenchSettings& s);

}  // namespace vortex::cli
