// The CPU backend: packs what the sums read into storage it keeps, runs the stages on OpenMP
// threads and keeps the results until the Solver has scattered them.

#include <omp.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu_stages.hpp"
#include "backend/packing.hpp"
#include "far/flush_subnormals.hpp"
#include "vortex/multipole/gradient_expansion.hpp"

namespace vortex::detail {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Storage of one arithmetic, kept between calls.
template <class T>
struct Packed {
  SourceColumns<T> sources;
  std::vector<T> expansions, gradient_expansions, centers;
  FarScratch<T> far_scratch;
  CoincidenceScratch<T> coincidences;

  SourceArrays<T> pack(SourcesView s, Core core, Origin o) {
    sources.resize(s.size());
    pack_sources(s, core, o,
                 [this](std::ptrdiff_t i, const PackedSource& p) { sources.store(i, p); });
    return sources.arrays();
  }
};

class CpuBackend final : public Backend {
 public:
  ComponentView direct_sum(SourcesView sources, PointsView targets, const ResolvedOptions& options,
                           bool gradient, EvaluationStats& stats) override {
    const auto start = Clock::now();
    double* const* out = size_results(targets.size(), gradient);
    const Origin o = middle_of(sources);
    // In the arithmetic asked for (double unless float was asked for or picked for a tolerance).
    auto sum = [&](auto& packed) {
      const auto s = packed.pack(sources, options.core, o);
      direct_sum_cpu(s, sources.size(), targets, o, options.core, gradient, out);
      add_rounding_coincidences(s, sources.size(), targets, o, options.core, gradient, out,
                                packed.coincidences);
    };
    if (options.arithmetic == Arithmetic::Float) {
      const FlushSubnormals flush;
      sum(float_);
    } else {
      sum(double_);
    }
    stats.times.near = seconds_since(start);
    fill_names(options.arithmetic, stats);
    return view();
  }

  ComponentView tree_sum(TreePlan& plan, const ResolvedOptions& options, bool gradient,
                         EvaluationStats& stats) override {
    double* const* out = size_results(plan.targets.size(), gradient);
    auto stage = Clock::now();
    compute_multipoles(plan);
    stats.times.multipole = seconds_since(stage);
    // Float sums run with subnormals flushed (far/flush_subnormals.hpp).
    std::optional<FlushSubnormals> flush;
    if (options.arithmetic == Arithmetic::Float) flush.emplace();
    stage = Clock::now();
    auto near = [&](auto& packed) {
      const auto s = packed.pack(plan.sources, options.core, plan.origin());
      near_field_cpu(plan, s, options.core, gradient, out);
      add_rounding_coincidences(s, plan.sources.size(), plan.targets, plan.origin(), options.core,
                                gradient, out, packed.coincidences);
    };
    if (options.arithmetic == Arithmetic::Float)
      near(float_);
    else
      near(double_);
    stats.times.near = seconds_since(stage);
    stage = Clock::now();
    const FarList m2p = plan_far_field(plan, options, stats);
    if (far_arithmetic(options) == FarArithmetic::Float)
      far_sum(float_, plan, m2p, gradient, out, stats);
    else
      far_sum(double_, plan, m2p, gradient, out, stats);
    stats.times.far = seconds_since(stage);
    fill_names(options.arithmetic, stats);
    return view();
  }

 private:
  // The far field's arithmetic: float where the pair sums are float. Kept apart from the near
  // field's, so that a tolerance can choose it on its own.
  static FarArithmetic far_arithmetic(const ResolvedOptions& options) {
    return options.arithmetic == Arithmetic::Float ? FarArithmetic::Float : FarArithmetic::Double;
  }

  // The far field's choice between M2P and local expansions (local_expansion_lists.hpp) for the
  // option; what is left to M2P.
  FarList plan_far_field(const TreePlan& plan, const ResolvedOptions& options,
                         EvaluationStats& stats) {
    const auto stage = Clock::now();
    const InteractionLists& lists = plan.lists;
    FarList m2p{lists.far_offsets.data(), lists.far_nodes.data(), lists.far_orders.data(),
                lists.far_nodes.size()};
    reset_far_field_stats(stats);
    local_.m2l_count = 0;
    local_.inherits = false;
    if (options.far_field == FarField::M2P || lists.far_nodes.empty()) return m2p;
    const FarFieldCosts costs = options.far_field == FarField::Auto
                                    ? far_field_costs(plan.order, far_arithmetic(options))
                                    : FarFieldCosts{};
    stats.far_field_costs = costs;
    build_local_expansion_lists(plan.target_tree, plan.source_tree, lists, options.tree.theta,
                                options.far_field, costs, local_, &plan.inherited_locals);
    stats.times.far_plan = seconds_since(stage);
    if (!local_.any_local()) return m2p;
    stats.far_field = "local";
    stats.m2l_translations = local_.m2l_count;
    stats.l2l_translations = local_.l2l_count;
    stats.l2p_targets = local_.l2p_targets;
    stats.multipole_interactions = local_.m2p_pairs;
    stats.far_list_entries = local_.m2p_nodes.size();
    return {local_.m2p_offsets.data(), local_.m2p_nodes.data(), local_.m2p_orders.data(),
            local_.m2p_nodes.size()};
  }

  // M2L, L2L and L2P of the local expansions the lists ask for, into `out`.
  template <class T>
  void local_sum(Packed<T>& packed, const TreePlan& plan, bool gradient, double* const* out,
                 EvaluationStats& stats) {
    LocalTimes times;
    local_field_cpu(plan, local_, locals_, gradient, packed.far_scratch, out, times);
    stats.times.m2l = times.m2l;
    stats.times.l2l = times.l2l;
    stats.times.l2p = times.l2p;
  }

  template <class T>
  void far_sum(Packed<T>& packed, const TreePlan& plan, FarList m2p, bool gradient,
               double* const* out, EvaluationStats& stats) {
    if (local_.any_local()) local_sum(packed, plan, gradient, out, stats);
    const auto stage = Clock::now();
    const Origin o = plan.origin();
    packed.centers.resize(4 * plan.source_tree.nodes.size());
    T* centers = packed.centers.data();
    pack_centers(plan, o,
                 [centers](std::ptrdiff_t k, double x, double y, double z, double inv_scale) {
                   centers[4 * k] = static_cast<T>(x);
                   centers[4 * k + 1] = static_cast<T>(y);
                   centers[4 * k + 2] = static_cast<T>(z);
                   centers[4 * k + 3] = static_cast<T>(inv_scale);
                 });
    // The gradient reads gradient expansions. The velocity alone reads velocity expansions: double
    // the plan's as they are, float a converted copy.
    // Either kind of call reserves the other's storage (not touched, so not committed): calls
    // that alternate allocate nothing after the first.
    const std::size_t nodes = plan.source_tree.nodes.size();
    packed.gradient_expansions.reserve(nodes * multipole::gradient_expansion_size(plan.order));
    if constexpr (!std::is_same_v<T, double>)
      packed.expansions.reserve(plan.velocity_expansions.size());
    const T* expansions;
    if (gradient) {
      gradient_expansions_cpu(plan, packed.gradient_expansions);
      expansions = packed.gradient_expansions.data();
    } else if constexpr (std::is_same_v<T, double>) {
      expansions = plan.velocity_expansions.data();
    } else {
      packed.expansions.resize(plan.velocity_expansions.size());
      convert_expansions(plan, packed.expansions.data());
      expansions = packed.expansions.data();
    }
    far_field_cpu(plan, m2p, expansions, centers, gradient, packed.far_scratch, out);
    stats.times.m2p = seconds_since(stage);
  }

  double* const* size_results(std::size_t n, bool gradient) {
    const int nc = gradient ? 12 : 3;
    for (int c = 0; c < 12; ++c) {
      if (c < nc) results_[c].resize(n);
      pointers_[c] = c < nc ? results_[c].data() : nullptr;
    }
    return pointers_.data();
  }

  ComponentView view() const {
    ComponentView v;
    for (int c = 0; c < 12; ++c) v.component[c] = pointers_[c];
    return v;
  }

  static void fill_names(Arithmetic a, EvaluationStats& stats) {
    stats.backend = "cpu";
    stats.precision = to_string(a);
    char device[48];  // assigned, not concatenated: a kept field's string allocates nothing
    std::snprintf(device, sizeof device, "cpu (%d threads)", omp_get_max_threads());
    stats.device = device;
  }

  Packed<double> double_;
  Packed<float> float_;
  LocalExpansionLists local_;
  std::vector<double> locals_;
  std::array<std::vector<double>, 12> results_;
  std::array<double*, 12> pointers_{};
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace vortex::detail
