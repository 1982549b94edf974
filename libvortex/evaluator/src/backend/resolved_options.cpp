#include "backend/resolved_options.hpp"

#include <algorithm>
#include <cmath>

#include "backend/tree_plan.hpp"

#include "vortex/tolerance.hpp"

namespace vortex::detail {

Arithmetic resolve_arithmetic(Precision precision, Backend backend) {
  if (precision == Precision::Double) return Arithmetic::Double;
  if (precision == Precision::Float) return Arithmetic::Float;
  return backend == Backend::Cuda ? Arithmetic::Float : Arithmetic::Double;
}

double mean_offset_in_sigmas(SourcesView s) {
  if (s.size() == 0) return 0;
  const Origin o = middle_of(s);
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const double dx = s.x[i] - o.x, dy = s.y[i] - o.y, dz = s.z[i] - o.z;
    sum += std::sqrt(dx * dx + dy * dy + dz * dz) / s.sigma[i];
  }
  return sum / static_cast<double>(n);
}

double SourceFacts::mean_offset_in_sigmas() const {
  return on_host ? detail::mean_offset_in_sigmas(host) : given_mean_offset;
}

SourceLayout SourceFacts::layout() const {
  return on_host ? layout_of(host) : given_layout;
}

SourceFacts facts_of(SourcesView sources) {
  SourceFacts f;
  f.num_sources = sources.size();
  f.on_host = true;
  f.host = sources;
  return f;
}

ResolvedOptions resolve_options(const SolverOptions& options, Backend backend,
                                SourcesView sources) {
  return resolve_options(options, backend, facts_of(sources));
}

ResolvedOptions resolve_options(const SolverOptions& options, Backend backend,
                                const SourceFacts& facts) {
  ResolvedOptions r;
  r.method = options.method;
  r.backend = backend;
  r.core = options.core;
  r.arithmetic = resolve_arithmetic(options.precision, backend);
  r.tolerance = options.tolerance;
  // With a tolerance, float where its rounding leaves most of the tolerance to the expansions,
  // which then get what float's rounding leaves.
  double budget = options.tolerance;
  if (budget > 0 && options.precision != Precision::Double) {
    const double rounding = float_rounding_error(facts.mean_offset_in_sigmas());
    if (options.precision == Precision::Auto)
      r.arithmetic = rounding <= kFloatShare * budget ? Arithmetic::Float : Arithmetic::Double;
    if (r.arithmetic == Arithmetic::Float) budget = std::max(budget - rounding, 0.1 * budget);
  }
  if (options.method == Method::Tree) {
    // The layout only matters where order or theta are left to the error model, or CUDA's leaf
    // sizes to their rule.
    const bool picked = options.tree.order == 0 || options.tree.theta == 0 ||
                        (backend == Backend::Cuda &&
                         (options.tree.target_bucket == 0 || options.tree.source_bucket == 0));
    const SourceLayout layout = picked ? facts.layout() : SourceLayout{facts.num_sources, 1};
    r.tree = resolve_tree_options(options.tree, options.core, backend, budget, layout);
  } else
    r.tree = TreeOptions{0, 0, 0, 0, 0, 0};
  r.tree_build = backend == Backend::Cuda && options.tree_build != TreeBuild::Host
                     ? TreeBuild::Device
                     : TreeBuild::Host;
  r.threads = options.threads;
  r.far_field = options.far_field;
  return r;
}

const char* to_string(Arithmetic arithmetic) {
  return arithmetic == Arithmetic::Double ? "double" : "float";
}

}  // namespace vortex::detail
