#pragma once
// The solver's options on the command line, shared by the apps: --method, --backend, --precision,
// --core, --tolerance, the tree options, --tree-build and --threads, with the library's defaults.

#include <string>

#include "cli.hpp"
#include "vortex/field.hpp"
#include "vortex/options.hpp"

namespace vortex::cli {

// "order 7, theta 0.5, kappa 2.41, buckets 32/32 (target/source), 8-way"
std::string describe_tree_options(const TreeOptions& tree);
// The tree options of an evaluation and the tolerance they were picked for ("the defaults" when
// none was given); empty for the direct method.
std::string describe_tree_choice(const EvaluationStats& stats);

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
  std::string far_field_ = to_string(defaults_.far_field);
  int threads_ = defaults_.threads;
  double tolerance_ = defaults_.tolerance;
};

}  // namespace vortex::cli
