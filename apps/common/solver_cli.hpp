#pragma once
// The solver's options on the command line, shared by the apps: --method, --backend, --precision,
// --core, the tree options, --tree-build and --threads, with the library's defaults.

#include <string>

#include "cli.hpp"
#include "vortex/options.hpp"

namespace vortex::cli {

class SolverCli {
 public:
  // Registers the options. With_method_backend_precision = false leaves out --method, --backend
  // and --precision (for apps that choose them otherwise).
  void add_to(OptionParser& parser, bool with_method_backend_precision = true);
  // The options as parsed; throws std::invalid_argument naming a bad value.
  SolverOptions options() const;

 private:
  SolverOptions defaults_;
  std::string method_ = to_string(defaults_.method);
  std::string backend_ = to_string(defaults_.backend);
  std::string precision_ = to_string(defaults_.precision);
  std::string core_ = to_string(defaults_.core);
  TreeOptions tree_ = defaults_.tree;
  std::string tree_build_ = to_string(defaults_.tree_build);
  int threads_ = defaults_.threads;
};

}  // namespace vortex::cli
