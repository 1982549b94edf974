#include "backend/resolved_options.hpp"

#include <algorithm>
#include <cmath>

#include "tree/bounding_box.hpp"
#include "tree/tree_plan.hpp"

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

FloatRange SourceFacts::range() const {
  return on_host ? float_range_of(host, host_targets) : given_range;
}

bool float_holds(const FloatRange& r) {
  return r.smallest_sigma >= std::ldexp(1.0, -30) && r.farthest_target <= std::ldexp(1.0, 20);
}

FloatRange float_range_from(const double lo[3], const double hi[3], double min_sigma,
                            const double target_lo[3], const double target_hi[3]) {
  double w = 0, d2 = 0;
  for (int k = 0; k < 3; ++k) {
    w = std::max(w, 0.5 * hi[k] - 0.5 * lo[k]);
    const double mid = 0.5 * lo[k] + 0.5 * hi[k];
    const double d = std::max(std::abs(target_lo[k] - mid), std::abs(target_hi[k] - mid));
    d2 += d * d;
  }
  FloatRange r;
  if (!(w > 0)) return r;
  r.smallest_sigma = min_sigma / w;
  r.farthest_target = std::sqrt(d2) / w;
  return r;
}

FloatRange float_range_of(SourcesView s, PointsView t) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
  if (n == 0) return {};
  const Box b = bounding_box(s.x, s.y, s.z, s.size());
  double min_sigma = s.sigma[0];
#pragma omp parallel for reduction(min : min_sigma)
  for (std::ptrdiff_t i = 0; i < n; ++i) min_sigma = std::min(min_sigma, s.sigma[i]);
  const Box tb = t.size() > 0 ? bounding_box(t.x, t.y, t.z, t.size()) : b;
  return float_range_from(b.lo, b.hi, min_sigma, tb.lo, tb.hi);
}

SourceFacts facts_of(SourcesView sources, PointsView targets) {
  SourceFacts f;
  f.num_sources = sources.size();
  f.on_host = true;
  f.host = sources;
  f.host_targets = targets;
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
  // Auto picks float only where float's exponent range holds the problem (FloatRange): one pass
  // over the sources and targets, made only where Auto would consider float.
  const bool auto_float = options.precision == Precision::Auto &&
                          (r.arithmetic == Arithmetic::Float || options.tolerance > 0);
  const bool range_holds = !auto_float || float_holds(facts.range());
  if (!range_holds) r.arithmetic = Arithmetic::Double;
  // The layout (one pass over host sources), read once where needed.
  bool have_layout = false;
  SourceLayout layout_read;
  const auto layout = [&]() -> const SourceLayout& {
    if (!have_layout) layout_read = facts.layout(), have_layout = true;
    return layout_read;
  };
  double budget = options.tolerance;
  if (budget > 0 && options.precision != Precision::Double && range_holds) {
    const double rounding = float_rounding_error(facts.mean_offset_in_sigmas(), layout());
    if (options.precision == Precision::Auto)
      r.arithmetic = rounding <= kFloatShare * budget ? Arithmetic::Float : Arithmetic::Double;
    if (r.arithmetic == Arithmetic::Float) budget = std::max(budget - rounding, 0.1 * budget);
  } else if (auto_float && range_holds && r.arithmetic == Arithmetic::Float &&
             filament_share(layout()) > 0 &&
             float_rounding_error(facts.mean_offset_in_sigmas(), layout()) >
                 kFloatShare * kDefaultTolerance) {
    // The defaults' float on a filament would not keep their accuracy (elsewhere its rounding
    // takes at most a few per cent of it: no pass over the sources to ask).
    r.arithmetic = Arithmetic::Double;
  }
  if (options.method == Method::Tree) {
    // The layout only matters where order or theta are left to the error model, or CUDA's leaf
    // sizes to their rule.
    const bool picked = options.tree.order == 0 || options.tree.theta == 0 ||
                        (backend == Backend::Cuda &&
                         (options.tree.target_bucket == 0 || options.tree.source_bucket == 0));
    const SourceLayout given = picked ? layout() : SourceLayout{facts.num_sources, 1};
    r.tree = resolve_tree_options(options.tree, options.core, backend, budget, given);
    if (picked) r.layout = given;
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

bool same_plan(const ResolvedOptions& a, const ResolvedOptions& b) {
  const TreeOptions &s = a.tree, &t = b.tree;
  return a.method == b.method && a.backend == b.backend && a.core == b.core &&
         a.arithmetic == b.arithmetic && a.tree_build == b.tree_build &&
         a.far_field == b.far_field && s.order == t.order && s.theta == t.theta &&
         s.kappa == t.kappa && s.target_bucket == t.target_bucket &&
         s.source_bucket == t.source_bucket && s.arity == t.arity &&
         s.uniform_order == t.uniform_order;
}

}  // namespace vortex::detail
