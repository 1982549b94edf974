// The CPU backend: packs what the sums read into storage it keeps, runs the stages on OpenMP
// threads and keeps the results until the Solver has scattered them.

#include <omp.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/backend.hpp"
#include "backend/packing.hpp"
#include "cpu/cpu_stages.hpp"
#include "cpu/flush_subnormals.hpp"

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
  std::vector<T> expansions, centers;
  std::vector<FarScratch<T>> far_scratch;

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
    if (options.arithmetic == Arithmetic::Float) {
      const FlushSubnormals flush;
      sum_tree(float_, plan, options.core, gradient, out, stats);
    } else {
      sum_tree(double_, plan, options.core, gradient, out, stats);
    }
    fill_names(options.arithmetic, stats);
    return view();
  }

 private:
  template <class T>
  void sum_tree(Packed<T>& packed, const TreePlan& plan, Core core, bool gradient,
                double* const* out, EvaluationStats& stats) {
    const Origin o = plan.origin();
    auto stage = Clock::now();
    near_field_cpu(plan, packed.pack(plan.sources, core, o), core, gradient, out);
    stats.times.near = seconds_since(stage);
    stage = Clock::now();
    packed.centers.resize(3 * plan.source_tree.nodes.size());
    T* centers = packed.centers.data();
    pack_centers(plan, o, [centers](std::ptrdiff_t k, double x, double y, double z) {
      centers[3 * k] = static_cast<T>(x);
      centers[3 * k + 1] = static_cast<T>(y);
      centers[3 * k + 2] = static_cast<T>(z);
    });
    // Double reads the plan's expansions as they are; float reads a converted copy.
    const T* expansions;
    if constexpr (std::is_same_v<T, double>) {
      expansions = plan.velocity_expansions.data();
    } else {
      packed.expansions.resize(plan.velocity_expansions.size());
      convert_expansions(plan, packed.expansions.data());
      expansions = packed.expansions.data();
    }
    far_field_cpu(plan, expansions, centers, gradient, packed.far_scratch, out);
    stats.times.far = seconds_since(stage);
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
