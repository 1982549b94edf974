#pragma once
// Time against N: the treecode from 1e4 particles up to what a time budget allows, with the
// direct sum of the same backend (extrapolated from a sample of targets where it would be slow)
// and the fitted growth exponents. Writes sweep-scaling.csv, .json and .txt.

#include <cstddef>
#include <vector>

#include "bench_runs.hpp"
#include "report_context.hpp"

namespace vortex::cli {

struct ScalingOptions {
  RunSpec run;                  // the treecode run
  std::vector<std::size_t> ns;  // explicit sizes; empty: 1e4, 2e4, 5e4, 1e5, ... up to max_n
  std::size_t max_n = 1000000;  // largest N tried
  double budget_s = 120;        // no larger N once its predicted time would exceed this total
  std::size_t sample = 256;     // targets of the error reference and of the direct-sum timing
  double direct_limit_s = 5;    // direct sums predicted slower than this are extrapolated
};

// 1e4, 2e4, 5e4, 1e5, ... up to max_n.
std::vector<std::size_t> default_scaling_sizes(std::size_t max_n);

void run_scaling(const ReportContext& context, const ScalingOptions& options);

}  // namespace vortex::cli
