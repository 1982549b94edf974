#include "backend/resolved_options.hpp"

#include <algorithm>

#include "vortex/tolerance.hpp"

namespace vortex::detail {

Arithmetic resolve_arithmetic(Precision precision, Backend backend, double tolerance) {
  if (precision == Precision::Double) return Arithmetic::Double;
  if (precision == Precision::Float) return Arithmetic::Float;
  if (tolerance > 0) return tolerance >= kFloatTolerance ? Arithmetic::Float : Arithmetic::Double;
  return backend == Backend::Cuda ? Arithmetic::Float : Arithmetic::Double;
}

ResolvedOptions resolve_options(const SolverOptions& options, Backend backend,
                                std::size_t num_sources) {
  ResolvedOptions r;
  r.method = options.method;
  r.backend = backend;
  r.core = options.core;
  r.arithmetic = resolve_arithmetic(options.precision, backend, options.tolerance);
  r.tolerance = options.tolerance;
  // Float's rounding takes its share of the tolerance; the expansions get the rest.
  double budget = options.tolerance;
  if (budget > 0 && r.arithmetic == Arithmetic::Float)
    budget = std::max(budget - kFloatRounding, 0.1 * budget);
  if (options.method == Method::Tree)
    r.tree = resolve_tree_options(options.tree, options.core, backend, budget, num_sources);
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
