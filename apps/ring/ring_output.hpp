#pragma once
// What vortex-ring prints and writes besides the per-step files: the set-up lines, the summary,
// speeds.csv, the plot and the JSON summary (shared with the blob check).

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "ring_measure.hpp"
#include "ring_settings.hpp"
#include "ring_setup.hpp"

namespace vortex::ring_app {

// %.10g, or null for a value that is not finite.
std::string json_number(double v);

// The run's counts, drifts and time, and the ring's speed where one was measured (not the blob's).
struct Summary {
  int steps = 0;
  std::size_t n_final = 0;
  double impulse_rel_drift = 0, circulation_rel_drift = 0, seconds = 0;
  double speed_measured = std::numeric_limits<double>::quiet_NaN();
  double speed_theory = std::numeric_limits<double>::quiet_NaN();
  double speed_rel_err = std::numeric_limits<double>::quiet_NaN();
};
void write_summary_json(const std::string& path, const Summary& summary);

// How the time loop went.
struct RunTotals {
  double t = 0, seconds = 0, diffusion_seconds = 0;
  std::size_t n_final = 0, inserted = 0, removed = 0;
};

void print_setup(const Settings& s, const RunPlan& plan, const RingSetup& setup);
// speeds.csv, the printed summary, the plot and the JSON summary.
void report_ring(const Settings& s, const RingSetup& setup, const RingHistory& history,
                 const RunTotals& totals);

}  // namespace vortex::ring_app
