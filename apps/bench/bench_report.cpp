#include "bench_report.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_runs.hpp"
#include "cli.hpp"
#include "figure7.hpp"
#include "report_context.hpp"
#include "scaling.hpp"
#include "sweeps.hpp"
#include "tolerance_sweep.hpp"
#include "vortex/solver.hpp"

namespace vortex::cli {

namespace {

template <typename T>
std::vector<T> parse_number_list(const std::string& option, const std::string& text) {
  std::vector<T> values;
  for (const auto& item : split_list(text)) {
    if constexpr (std::is_same_v<T, double>) {
      values.push_back(parse_double(option, item));
    } else if constexpr (std::is_same_v<T, int>) {
      values.push_back(parse_int(option, item));
    } else {
      values.push_back(static_cast<T>(parse_uint64(option, item)));
    }
  }
  if (values.empty()) throw UsageError(option + ": empty list");
  return values;
}

std::vector<std::string> parse_sweeps(const std::string& text) {
  if (text.empty() || text == "none") return {};
  std::vector<std::string> all = parameter_sweep_names();
  all.push_back("scaling");
  if (text == "all") return all;
  all.push_back("tolerance");  // not part of "all": three cases at --tolerance-n
  std::vector<std::string> names = split_list(text);
  for (const auto& name : names) {
    if (std::find(all.begin(), all.end(), name) == all.end()) {
      throw UsageError("--sweep: unknown sweep '" + name +
                       "' (accepted: bucket, order-theta, arity, scaling, all, tolerance)");
    }
  }
  return names;
}

bool has_sweep(const std::vector<std::string>& sweeps, const char* name) {
  return std::find(sweeps.begin(), sweeps.end(), name) != sweeps.end();
}

// The case, the measuring settings and the provenance that every report file records.
ReportContext report_context(const BenchSettings& s) {
  const CaseFlags& c = s.case_flags;
  ReportContext context;
  context.case_name = c.case_name;
  context.seed = c.seed;
  context.sample = c.sample;
  context.repeat = c.repeat;
  context.gradient = !c.velocity_only;
  context.base = s.base;
  context.command = s.command;
  context.commit = s.report.commit;
  context.machine = MachineInfo::current();
  return context;
}

}  // namespace

int run_report(const BenchSettings& s) {
  const ReportFlags& flags = s.report;
  const CaseFlags& c = s.case_flags;
  const bool gpu = cuda_available();
  const std::vector<std::string> sweeps = parse_sweeps(flags.sweeps);
  make_directories(flags.out);
  ReportContext context = report_context(s);
  context.out_dir = flags.out;
  if (!c.repeat_given) context.repeat = 3;
  std::printf("vortex-bench: output folder %s\n", flags.out.c_str());
  if (flags.report) {
    Figure7Options options;
    options.n = c.n_given ? c.n : (gpu ? 500000 : 100000);
    if (c.runs_given) options.runs = parse_runs(c.runs_text, s.precision);
    options.direct_limit_s = flags.direct_limit;
    options.write_vtp = !flags.no_vtp;
    run_figure7(context, options);
  }
  if (sweeps.empty()) return 0;
  RunSpec run = flags.sweep_run.empty() ? make_run(gpu ? Backend::Cuda : Backend::Cpu, Method::Tree)
                                        : parse_runs(flags.sweep_run, s.precision).at(0);
  if (run.method != Method::Tree) throw UsageError("--sweep-run: the sweeps need a tree run");
  ReportContext sweep_context = context;
  sweep_context.repeat = std::max(flags.sweep_repeat, 1);
  SweepOptions options;
  options.n = flags.sweep_n ? flags.sweep_n : (gpu ? 500000 : 20000);
  options.run = run;
  if (!flags.buckets.empty()) options.buckets = parse_number_list<int>("--buckets", flags.buckets);
  if (!flags.orders.empty()) options.orders = parse_number_list<int>("--orders", flags.orders);
  if (!flags.thetas.empty()) options.thetas = parse_number_list<double>("--thetas", flags.thetas);
  if (!flags.arities.empty()) {
    options.arities = parse_number_list<int>("--arities", flags.arities);
  }
  run_parameter_sweeps(sweep_context, options, sweeps);
  if (has_sweep(sweeps, "tolerance")) {
    ToleranceSweepOptions tolerance;
    tolerance.n = flags.tolerance_n;
    tolerance.run = run;
    if (!flags.tolerances.empty())
      tolerance.tolerances = parse_number_list<double>("--tolerances", flags.tolerances);
    if (!flags.tolerance_cases.empty()) tolerance.cases = split_list(flags.tolerance_cases);
    tolerance.rounds = std::max(flags.tolerance_rounds, 1);
    ReportContext tolerance_context = sweep_context;
    tolerance_context.repeat = context.repeat;
    run_tolerance_sweep(tolerance_context, tolerance);
  }
  if (has_sweep(sweeps, "scaling")) {
    ScalingOptions scaling;
    scaling.run = run;
    if (!flags.scaling_ns.empty() && flags.scaling_ns != "auto") {
      scaling.ns = parse_number_list<std::size_t>("--scaling-n", flags.scaling_ns);
    }
    scaling.max_n = flags.scaling_max ? flags.scaling_max : (gpu ? 10000000 : 1000000);
    scaling.budget_s = flags.scaling_budget;
    scaling.sample = std::max<std::uint64_t>(flags.scaling_sample, 1);
    run_scaling(sweep_context, scaling);
  }
  return 0;
}

}  // namespace vortex::cli
