#pragma once
// The work of a rank's sums, priced from their counts: the weight of the next call's split of the
// targets (balanced_shares). Counts rather than clocks, so that the same particles are split
// alike in every run: a split that followed measured times moved with the machine's load, and with
// it the order of the sums over ranks, and runs of the same case differed in their last digits
// (enough, with merges of weak particles, to change a merge).

#include "backend/resolved_options.hpp"
#include "vortex/field.hpp"

namespace vortex::mpi::detail {

// Seconds the sums of `stats` (pairs, M2P pairs, M2L translations, L2P targets) take by the cost
// models of the backend and arithmetic of `options`; only the ratios between ranks matter.
double sums_work(const EvaluationStats& stats, const vortex::detail::ResolvedOptions& options);

}  // namespace vortex::mpi::detail
