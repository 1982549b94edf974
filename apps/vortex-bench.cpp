// vortex-bench: generates a particle case, times the solver's methods and backends on it, and
// measures their errors against a double-precision direct sum on a sample of targets. With
// --report and --sweep it reproduces the founding paper's Figure 7 table and parameter studies
// into an output folder. The modules are in bench/.

#include "app_main.hpp"
#include "bench_report.hpp"
#include "bench_settings.hpp"
#include "bench_table.hpp"

namespace {

using namespace vortex::cli;

int bench_main(int argc, char** argv) {
  BenchSettings s;
  if (!parse_settings(argc, argv, s)) return 0;
  return s.report_mode() ? run_report(s) : run_table(s);
}

}  // namespace

int main(int argc, char** argv) {
  return vortex::cli::run_app("vortex-bench", argc, argv, bench_main);
}
