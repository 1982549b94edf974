// Far field of the treecode on CPU threads: multipole evaluation (M2P) over each target leaf's far
// list, the leaf's targets in SIMD lanes (multipole/m2p_batch.hpp), in double or in float, the
// terms of every box added into double sums per target. With the gradient, each box is read as
// its gradient expansion (multipole/gradient_expansion.hpp).

#include <omp.h>

#include "cpu/cpu_stages.hpp"
#include "vortex/kernels/constants.hpp"
#include "vortex/kernels/order_dispatch.hpp"
#include "vortex/multipole/m2p_batch.hpp"

namespace vortex::detail {

namespace {

// Targets rounded up to whole vectors of T.
template <class T>
int padded_count(int n) {
  constexpr int W = multipole::target_lane_count<T>();
  return (n + W - 1) / W * W;
}

// Loads leaf t's targets (relative to the origin) into the scratch's columns; the padding repeats
// the last target, so every lane evaluates at a valid point.
template <class T>
multipole::LeafLanes<T> load_leaf(const TreePlan& plan, const KdNode& t, int components,
                                  FarScratch<T>& w) {
  const Origin o = plan.origin();
  const int n = t.count(), padded = padded_count<T>(n);
  w.x.resize(padded);
  w.y.resize(padded);
  w.z.resize(padded);
  for (int i = 0; i < padded; ++i) {
    const int j = t.begin + (i < n ? i : n - 1);
    w.x[i] = static_cast<T>(plan.targets.x[j] - o.x);
    w.y[i] = static_cast<T>(plan.targets.y[j] - o.y);
    w.z[i] = static_cast<T>(plan.targets.z[j] - o.z);
  }
  w.sums.assign(static_cast<std::size_t>(components) * padded, 0.0);
  return {w.x.data(), w.y.data(), w.z.data(), padded, w.sums.data()};
}

template <int P, class T>
void far_field_order(const TreePlan& plan, const T* expansions, const T* centers, bool gradient,
                     std::vector<FarScratch<T>>& scratch, ComponentArrays out) {
  const std::size_t stride =
      gradient ? multipole::gradient_expansion_size(P) : multipole::velocity_expansion_size(P);
  const auto& lists = plan.lists;
  const KdTree& tt = plan.target_tree;
  const int components = gradient ? 12 : 3;
  const int num_leaves = static_cast<int>(tt.leaves.size());
#pragma omp parallel
  {
    FarScratch<T>& w = scratch[omp_get_thread_num()];
    w.reserve(
        padded_count<T>(tt.bucket));  // every leaf's targets, whichever leaves this thread gets
#pragma omp for schedule(dynamic, 1)
    for (int leaf = 0; leaf < num_leaves; ++leaf) {
      const int first = lists.far_offsets[leaf], last = lists.far_offsets[leaf + 1];
      if (first == last) continue;
      const KdNode& t = tt.nodes[tt.leaves[leaf]];
      const multipole::LeafLanes<T> lanes = load_leaf(plan, t, components, w);
      for (int k = first; k < last; ++k) {
        const std::size_t s = lists.far_nodes[k];
        if (gradient)
          multipole::m2p_velocity_gradient_lanes<P>(expansions + s * stride, centers + 3 * s,
                                                    lanes);
        else
          multipole::m2p_velocity_lanes<P>(expansions + s * stride, centers + 3 * s, lanes);
      }
      for (int c = 0; c < components; ++c) {
        const double* sum = lanes.sums + static_cast<std::size_t>(c) * lanes.padded;
        double* o = out[c] + t.begin;
        for (int i = 0; i < t.count(); ++i) o[i] += kInvFourPi * sum[i];
      }
    }
  }
}

}  // namespace

template <class T>
void far_field_cpu(const TreePlan& plan, const T* expansions, const T* centers, bool gradient,
                   std::vector<FarScratch<T>>& scratch, ComponentArrays out) {
  if (plan.lists.far_nodes.empty()) return;
  if (scratch.size() < static_cast<std::size_t>(omp_get_max_threads()))
    scratch.resize(omp_get_max_threads());
  dispatch_order(plan.order, "far field", [&](auto P) {
    far_field_order<decltype(P)::value>(plan, expansions, centers, gradient, scratch, out);
  });
}

template void far_field_cpu(const TreePlan&, const double*, const double*, bool,
                            std::vector<FarScratch<double>>&, ComponentArrays);
template void far_field_cpu(const TreePlan&, const float*, const float*, bool,
                            std::vector<FarScratch<float>>&, ComponentArrays);

}  // namespace vortex::detail
