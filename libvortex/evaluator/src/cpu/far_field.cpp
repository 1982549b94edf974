// Far field of the treecode on CPU threads: multipole evaluation (M2P) over each target leaf's far
// list, the leaf's targets in SIMD lanes (multipole/m2p_batch.hpp), in double or in float.

#include <omp.h>

#include "cpu/cpu_stages.hpp"
#include "vortex/kernels/constants.hpp"
#include "vortex/kernels/order_dispatch.hpp"
#include "vortex/multipole/m2p_batch.hpp"

namespace vortex::detail {

namespace {

template <int P, class T>
void far_field_order(const TreePlan& plan, const T* expansions, const T* centers, bool gradient,
                     std::vector<FarScratch<T>>& scratch, ComponentArrays out) {
  const std::size_t stride = multipole::velocity_expansion_size(P);
  const auto& lists = plan.lists;
  const KdTree& tt = plan.target_tree;
  const Origin o = plan.origin();
  const int num_leaves = static_cast<int>(tt.leaves.size());
#pragma omp parallel
  {
    FarScratch<T>& w = scratch[omp_get_thread_num()];
    w.reserve(tt.bucket);  // every leaf's targets, whichever leaves this thread gets
#pragma omp for schedule(dynamic, 1)
    for (int leaf = 0; leaf < num_leaves; ++leaf) {
      const int first = lists.far_offsets[leaf], last = lists.far_offsets[leaf + 1];
      if (first == last) continue;
      const KdNode& t = tt.nodes[tt.leaves[leaf]];
      const int n = t.count();
      w.x.resize(n);
      w.y.resize(n);
      w.z.resize(n);
      w.acc.assign(n, VelocityGradientAccumulator<T>{});
      for (int i = 0; i < n; ++i) {
        w.x[i] = static_cast<T>(plan.targets.x[t.begin + i] - o.x);
        w.y[i] = static_cast<T>(plan.targets.y[t.begin + i] - o.y);
        w.z[i] = static_cast<T>(plan.targets.z[t.begin + i] - o.z);
      }
      for (int k = first; k < last; ++k) {
        const std::size_t s = lists.far_nodes[k];
        const T* V = expansions + s * stride;
        const T* c = centers + 3 * s;
        if (gradient)
          multipole::m2p_velocity_gradient_batch<P>(V, c, n, w.x.data(), w.y.data(), w.z.data(),
                                                    w.acc.data());
        else
          multipole::m2p_velocity_batch<P>(V, c, n, w.x.data(), w.y.data(), w.z.data(),
                                           w.acc.data());
      }
      for (int i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) out[a][t.begin + i] += kInvFourPi * w.acc[i].u[a];
        if (gradient)
          for (int q = 0; q < 9; ++q) out[3 + q][t.begin + i] += kInvFourPi * w.acc[i].du[q];
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
