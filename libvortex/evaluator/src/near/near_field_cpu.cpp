// Near field of the treecode on CPU threads: pair sums over each target leaf's near ranges.

#include "backend/cpu_stages.hpp"
#include "vortex/math/constants.hpp"

namespace vortex::detail {

template <class T>
void near_field_cpu(const TreePlan& plan, const SourceArrays<T>& s, Core core, bool gradient,
                    ComponentArrays out) {
  const auto& lists = plan.lists;
  const KdTree& tt = plan.target_tree;
  const Origin o = plan.origin();
  const int num_leaves = static_cast<int>(tt.leaves.size());
  dispatch_core(core, [&](auto c) {
    constexpr Core C = decltype(c)::value;
#pragma omp parallel for schedule(dynamic, 1)
    for (int leaf = 0; leaf < num_leaves; ++leaf) {
      const IndexRange* first = lists.near_ranges.data() + lists.near_offsets[leaf];
      const IndexRange* last = lists.near_ranges.data() + lists.near_offsets[leaf + 1];
      const KdNode& t = tt.nodes[tt.leaves[leaf]];
      for (int i = t.begin; i < t.end; ++i) {
        const T tx = static_cast<T>(plan.targets.x[i] - o.x);
        const T ty = static_cast<T>(plan.targets.y[i] - o.y);
        const T tz = static_cast<T>(plan.targets.z[i] - o.z);
        if (gradient) {
          VelocityGradientAccumulator<double> acc;
          for (const IndexRange* r = first; r != last; ++r)
            sum_range_velocity_gradient<C>(s, r->begin, r->end, tx, ty, tz, acc);
          for (int a = 0; a < 3; ++a) out[a][i] = kInvFourPi * acc.u[a];
          for (int k = 0; k < 9; ++k) out[3 + k][i] = kInvFourPi * acc.du[k];
        } else {
          VelocityAccumulator<double> acc;
          for (const IndexRange* r = first; r != last; ++r)
            sum_range_velocity<C>(s, r->begin, r->end, tx, ty, tz, acc);
          for (int a = 0; a < 3; ++a) out[a][i] = kInvFourPi * acc.u[a];
        }
      }
    }
  });
}

template void near_field_cpu(const TreePlan&, const SourceArrays<double>&, Core, bool,
                             ComponentArrays);
template void near_field_cpu(const TreePlan&, const SourceArrays<float>&, Core, bool,
                             ComponentArrays);

}  // namespace vortex::detail
