#include "ring_case.hpp"

#include "case_file.hpp"
#include "ring_settings.hpp"

namespace vortex::ring_app {

std::vector<std::string> case_file_arguments(const std::string& path) {
  // A parser of vortex-ring's options, for their types; its values are thrown away.
  Settings probe;
  std::string case_file;
  cli::OptionParser parser("vortex-ring", "", "");
  add_options(parser, probe, case_file);
  return cli::case_file_arguments(path, parser);
}

}  // namespace vortex::ring_app
