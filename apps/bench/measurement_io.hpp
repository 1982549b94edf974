#pragma once
// A measurement as CSV columns and as a JSON object, the same in the report and every sweep.

#include <string>
#include <vector>

#include "bench_runs.hpp"
#include "json_writer.hpp"
#include "report_context.hpp"
#include "tables.hpp"

namespace vortex::cli {

// Columns: the tree options as used (zeros for direct sums), the stage times (s), velocity = near +
// far + transfer, the counts, the errors and the timing provenance.
const std::vector<std::string>& measurement_columns();
// Appends the cells of measurement_columns() to the current row.
void add_measurement_cells(CsvTable& table, const Measurement& m);

// near + far + transfer: the paper's t_velocity.
double velocity_time(const StageTimes& t);

// The "times" object (stage seconds; with_velocity adds "velocity" = near + far + transfer) and
// the "error" object (null gradient errors without a gradient), each as a member of the open
// object.
void write_stage_times(JsonWriter& json, const StageTimes& t, bool with_velocity);
// One line on the CPU far field: its path, the time and count of each of its stages.
std::string describe_far_field(const EvaluationStats& stats);
// The GPU plan's items and the largest one's work against the mean ("" without a plan).
std::string describe_plan_balance(const EvaluationStats& stats);
void write_errors(JsonWriter& json, const FieldErrors& e);
// The kernels' rates ("pair_gflops", "far_gflops_at_order_p", their fractions of the GPU's FP32
// peak and the peak) as members of the open object.
void write_kernel_rates(JsonWriter& json, const Measurement& m);

// Members of the measurement ("run", "backend", ..., "times", "counts", "error") into the open
// object.
void write_measurement(JsonWriter& json, const Measurement& m);

}  // namespace vortex::cli
