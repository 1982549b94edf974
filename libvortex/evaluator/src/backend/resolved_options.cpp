#include "backend/resolved_options.hpp"

namespace vortex::detail {

Arithmetic resolve_arithmetic(Precision precision, Backend backend) {
  if (precision == Precision::Double) return Arithmetic::Double;
  if (precision == Precision::Float) return Arithmetic::Float;
  return backend == Backend::Cuda ? Arithmetic::Float : Arithmetic::Double;
}

ResolvedOptions resolve_options(const SolverOptions& options, Backend backend) {
  ResolvedOptions r;
  r.method = options.method;
  r.backend = backend;
  r.core = options.core;
  r.arithmetic = resolve_arithmetic(options.precision, backend);
  if (options.method == Method::Tree)
    r.tree = resolve_tree_options(options.tree, options.core, backend);
  else
    r.tree = TreeOptions{0, 0, 0, 0, 0, 0};
  r.tree_build = backend == Backend::Cuda && options.tree_build != TreeBuild::Host
                     ? TreeBuild::Device
                     : TreeBuild::Host;
  r.threads = options.threads;
  return r;
}

const char* to_string(Arithmetic arithmetic) {
  return arithmetic == Arithmetic::Double ? "double" : "float";
}

}  // namespace vortex::detail
