#pragma once
// The founding paper's Figure 7 table on this machine: CPU direct, CPU treecode, GPU direct and
// GPU treecode (the GPU rows where a device is present) on the cube case, with stage times,
// errors against the double-precision direct sum, and speed-ups over the CPU direct sum.
// Writes report.txt, report.csv, report.json and particles.vtp into the output folder.

#include <cstddef>
#include <limits>
#include <vector>

#include "bench_runs.hpp"
#include "report_context.hpp"

namespace vortex::cli {

struct Figure7Options {
  std::size_t n = 0;
  std::vector<RunSpec> runs;  // empty: the four methods (GPU rows only with a device)
  // A direct sum whose estimated time over all targets exceeds this is timed at a sample and
  // extrapolated.
  double direct_limit_s = 60;
  bool write_vtp = true;  // particles.vtp: the last treecode run's field at every particle
};

// The runs of Figure 7 on this machine.
std::vector<RunSpec> figure7_runs();

void run_figure7(const ReportContext& context, const Figure7Options& options);

}  // namespace vortex::cli
