#pragma once
// The tolerance sweep: for each case and each requested tolerance, the treecode with
// SolverOptions::tolerance set and every tree option left to it, timed in alternated rounds
// (median over rounds), with its measured errors against the direct sum. Writes
// sweep-tolerance.csv, .json and .txt; scripts/plot-report.sh (scripts/plots/tolerance.gp) draws
// time against error with the tolerances as lines.

#include <cstddef>
#include <string>
#include <vector>

#include "bench_runs.hpp"
#include "report_context.hpp"

namespace vortex::cli {

struct ToleranceSweepOptions {
  std::size_t n = 100000;
  RunSpec run;  // BACKEND-tree[-PRECISION]; precision auto lets the tolerance choose it
  std::vector<double> tolerances{1e-3, 2e-4, 1e-5, 1e-6};
  std::vector<std::string> cases{"cube", "plummer", "sheet"};
  int rounds = 1;  // passes over all points; each point's time is the median over them
};

void run_tolerance_sweep(const ReportContext& context, const ToleranceSweepOptions& options);

}  // namespace vortex::cli
