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
#include "backend/packing.hpp"
#include "cpu/cpu_stages.hpp"
#include "cpu/flush_subnormals.hpp"
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
    // The direct sum is the reference of every error: double whatever the precision asked for.
    direct_sum_cpu(double_.pack(sources, options.core, o), sources.size(), targets, o, options.core,
                   gradient, out);
    stats.times.near = seconds_since(start);
    fill_names(Arithmetic::Double, stats);
    return view();
  }

  ComponentView tree_sum(TreePlan& plan, const ResolvedOptions& options, bool gradient,
                         EvaluationStats& stats) override {
    double* const* out = size_results(plan.targets.size(), gradient);
    auto stage = Clock::now();
    compute_multipoles(plan);
    stats.times.multipole = seconds_since(stage);
    // Float sums run with subnormals flushed (cpu/flush_subnormals.hpp).
    std::optional<FlushSubnormals> flush;
    if (options.arithmetic == Arithmetic::Float) flush.emplace();
    stage = Clock::now();
    if (options.arithmetic == Arithmetic::Float)
      near_field_cpu(plan, float_.pack(plan.sources, options.core, plan.origin()), options.core,
                     gradient, out);
    else
      near_field_cpu(plan, double_.pack(plan.sources, options.core, plan.origin()), options.core,
                     gradient, out);
    stats.times.near = seconds_since(stage);
    stage = Clock::now();
    if (far_arithmetic(options) == FarArithmetic::Float)
      far_sum(float_, plan, gradient, out);
    else
      far_sum(double_, plan, gradient, out);
    stats.times.far = seconds_since(stage);
    fill_names(options.arithmetic, stats);
    return view();
  }

  void device_tree_sum(SourcesView, PointsView, const ResolvedOptions&, bool, EvaluationStats&,
                       double* const*, bool) override {
    throw std::logic_error("the CPU backend builds its trees on the host");
  }

  SourceFacts device_input_facts(SourcesView, PointsView, double* const*, int) override {
    throw std::logic_error("the CPU backend reads no device memory");
  }

 private:
  // The far field's arithmetic: float where the pair sums are float. Kept apart from the near
  // field's, so that a tolerance can choose it on its own.
  static FarArithmetic far_arithmetic(const ResolvedOptions& options) {
    return options.arithmetic == Arithmetic::Float ? FarArithmetic::Float : FarArithmetic::Double;
  }

  template <class T>
  void far_sum(Packed<T>& packed, const TreePlan& plan, bool gradient, double* const* out) {
    const Origin o = plan.origin();
    packed.centers.resize(3 * plan.source_tree.nodes.size());
    T* centers = packed.centers.data();
    pack_centers(plan, o, [centers](std::ptrdiff_t k, double x, double y, double z) {
      centers[3 * k] = static_cast<T>(x);
      centers[3 * k + 1] = static_cast<T>(y);
      centers[3 * k + 2] = static_cast<T>(z);
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
    far_field_cpu(plan, expansions, centers, gradient, packed.far_scratch, out);
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
  std::array<std::vector<double>, 12> results_;
  std::array<double*, 12> pointers_{};
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend() {
  return std::make_unique<CpuBackend>();
}

}  // namespace vortex::detail
