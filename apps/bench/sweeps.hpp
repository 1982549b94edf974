#pragma once
// Parameter sweeps of the treecode on one case: bucket sizes (the near/far shift of the paper's
// Figure 5), multipole order and theta (error against time, with the Pareto front) and tree
// arity. Each writes sweep-<name>.csv, .json and .txt into the output folder (and the order-theta
// sweep its Pareto front, fastest first, as sweep-order-theta-pareto.csv).

#include <cstddef>
#include <string>
#include <vector>

#include "bench_runs.hpp"
#include "report_context.hpp"

namespace vortex::cli {

struct SweepOptions {
  std::size_t n = 0;
  RunSpec run;  // the treecode run being swept
  std::vector<int> buckets{16, 32, 64, 128, 256, 512};
  std::vector<int> orders{3, 4, 5, 6, 7, 8, 9, 10};
  std::vector<double> thetas{0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
  std::vector<int> arities{2, 4, 8};
};

// The sweep names accepted by --sweep, in the order they run.
const std::vector<std::string>& parameter_sweep_names();  // bucket, order-theta, arity

// Runs the named parameter sweeps on one generated case (one reference for all).
void run_parameter_sweeps(const ReportContext& context, const SweepOptions& options,
                          const std::vector<std::string>& names);

}  // namespace vortex::cli
