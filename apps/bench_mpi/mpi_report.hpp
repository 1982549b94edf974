#pragma once
// vortex-bench-mpi's measurements: the medians of the timed calls, the error check against the
// direct sum, and their text and JSON.

#include <string>
#include <vector>

#include "mpi_settings.hpp"
#include "vortex/error_metrics.hpp"
#include "vortex/mpi/distributed_solver.hpp"

namespace vortex::cli {

struct MpiErrors {
  bool checked = false;
  FieldErrors errors;
  double seconds = 0;  // the reference sum's
};

struct MpiBenchResult {
  MpiBenchSettings settings;
  int ranks = 1;
  std::size_t n = 0;
  mpi::DistributedTimes slowest, mean;  // the medians over the calls of each stage
  double imbalance = 0;                 // median of the sums' slowest over mean
  mpi::DistributedStats last;           // the last call's counts and names
  std::vector<double> totals;           // each call's slowest total
  MpiErrors errors;
  double baseline = 0;  // median total of the one-rank Solver (0: not timed)
};

// Collective: the distributed field at about s.sample of the ranks' own particles (`mine`, with
// its `field`), gathered to rank 0 and compared there with the double direct sum of `all`.
MpiErrors check_against_direct(const ParticleSet& all, const ParticleSet& mine,
                               const VelocityField& field, const MpiBenchSettings& s,
                               bool gradient);

MpiBenchResult summarize(const std::vector<mpi::DistributedStats>& calls, const MpiBenchSettings& s,
                         int ranks, std::size_t n);
std::string report_text(const MpiBenchResult& r);
std::string report_json(const MpiBenchResult& r);

}  // namespace vortex::cli
