#pragma once
// vortex-bench's options: the case and the runs of the table mode (the base of report mode too),
// report mode's Figure 7 table and parameter sweeps, and the solver's options.

#include <cstdint>
#include <string>

#include "vortex/options.hpp"

namespace vortex::cli {

// The case and the runs of the table mode (the base of report mode too).
struct CaseFlags {
  std::string case_name = "cube", runs_text = "auto", precision_text = "auto", json_path,
              particles_path;
  std::uint64_t n = 100000, seed = 1, sample = 1000;
  double scale = 1;
  int repeat = 1;
  bool velocity_only = false;
  // Given on the command line (report mode has other defaults for them).
  bool n_given = false, runs_given = false, repeat_given = false;
};

// Report mode (--report, --sweep): the Figure 7 table and the treecode's parameter sweeps.
struct ReportFlags {
  bool report = false;
  std::string sweeps, out = "vortex-report", commit, sweep_run, buckets, orders, thetas, arities,
                      scaling_ns, tolerances, tolerance_cases;
  double direct_limit = 60, scaling_budget = 120;
  std::uint64_t sweep_n = 0, scaling_max = 0, scaling_sample = 256, tolerance_n = 100000;
  int sweep_repeat = 1, tolerance_rounds = 1;
  bool no_vtp = false;
};

struct BenchSettings {
  CaseFlags case_flags;
  ReportFlags report;
  SolverOptions base;  // the solver's options but the method, backend and precision (--runs)
  Precision precision = Precision::Auto;  // of the runs that do not name one
  std::string command;                    // the command line, recorded in report mode's files

  // --report or a --sweep other than none.
  bool report_mode() const;
};

// Reads the command line into `s` and checks it (cli::UsageError names a bad value). Returns false
// after --help.
bool parse_settings(int argc, char** argv, BenchSettings& s);

}  // namespace vortex::cli
