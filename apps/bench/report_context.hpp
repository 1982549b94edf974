#pragma once
// What the report and the sweeps share: the output folder, the case, the measuring settings, the
// solver's options, and the provenance written into every result file (command, commit, machine).

#include <cstdint>
#include <string>

#include "json_writer.hpp"
#include "machine_info.hpp"
#include "solver_cli.hpp"
#include "vortex/options.hpp"

namespace vortex::cli {

struct ReportContext {
  std::string out_dir;
  std::string case_name = "cube";
  std::uint64_t seed = 1;
  std::size_t sample = 1000;  // targets compared with the double-precision direct sum
  int repeat = 3;             // timed calls per configuration; the median is reported
  bool gradient = true;
  SolverOptions base;   // core, tree options and threads as given (defaults from the library)
  std::string command;  // the command line
  std::string commit;   // of the code measured, when known
  MachineInfo machine;

  // out_dir/name
  std::string path(const std::string& name) const;
  // Writes `text` to out_dir/name atomically and says so on stdout.
  void write_file(const std::string& name, const std::string& text) const;
  // Members "case", "seed", "core", "gradient", "sample", "threads", "tree_options_given" (as
  // given: 0 = the tuned default of the backend that runs; each result lists the options it
  // used), "command", "commit" and "machine", into the open object.
  void write_provenance(JsonWriter& json) const;
  // The same as a few lines of text, for the .txt outputs.
  std::string describe() const;
};

// Tree options as an inline JSON object.
void write_tree_options(JsonWriter& json, const TreeOptions& tree);

// Creates the folder (and its parents); throws std::runtime_error naming it on failure.
void make_directories(const std::string& path);

}  // namespace vortex::cli
