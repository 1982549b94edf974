// Near field of the treecode on CPU threads: pair sums over each target leaf's near list.

#include <vector>

#include "../evaluation.hpp"
#include "pair_sum.hpp"

namespace vortex::detail {

namespace {
constexpr double kInvFourPi = 0.079577471545947667884;

struct Range {
  int begin, end;
};

// The near leaves of one target leaf as source ranges, neighbours in tree order merged so the
// vectorized loop runs long.
void near_ranges(const TreePlan& plan, int leaf, std::vector<Range>& ranges) {
  ranges.clear();
  const auto& lists = plan.lists;
  for (int k = lists.near_offsets[leaf]; k < lists.near_offsets[leaf + 1]; ++k) {
    const KdNode& s = plan.source_tree.nodes[lists.near_nodes[k]];
    if (!ranges.empty() && ranges.back().end == s.begin)
      ranges.back().end = s.end;
    else
      ranges.push_back({s.begin, s.end});
  }
}

// T is the arithmetic of the pair sums; positions are taken relative to the source root's center.
template <Core C, class T>
void near_field(const TreePlan& plan, const SourceArrays<T>& s, const double origin[3],
                bool gradient, VelocityField& out) {
  const int num_leaves = static_cast<int>(plan.target_tree.leaves.size());
#pragma omp parallel
  {
    std::vector<Range> ranges;
#pragma omp for schedule(dynamic, 1)
    for (int leaf = 0; leaf < num_leaves; ++leaf) {
      near_ranges(plan, leaf, ranges);
      const KdNode& t = plan.target_tree.nodes[plan.target_tree.leaves[leaf]];
      for (int i = t.begin; i < t.end; ++i) {
        const T tx = static_cast<T>(plan.targets.x[i] - origin[0]);
        const T ty = static_cast<T>(plan.targets.y[i] - origin[1]);
        const T tz = static_cast<T>(plan.targets.z[i] - origin[2]);
        if (gradient) {
          VelocityGradientAccumulator<double> acc;
          for (const Range& r : ranges)
            sum_range_velocity_gradient<C>(s, r.begin, r.end, tx, ty, tz, acc);
          for (int a = 0; a < 3; ++a) out.u[a][i] += kInvFourPi * acc.u[a];
          for (int k = 0; k < 9; ++k) out.du[k][i] += kInvFourPi * acc.du[k];
        } else {
          VelocityAccumulator<double> acc;
          for (const Range& r : ranges) sum_range_velocity<C>(s, r.begin, r.end, tx, ty, tz, acc);
          for (int a = 0; a < 3; ++a) out.u[a][i] += kInvFourPi * acc.u[a];
        }
      }
    }
  }
}

}  // namespace

void evaluate_near_cpu(const TreePlan& plan, Core core, bool single_precision, bool gradient,
                       VelocityField& out) {
  const double* origin = plan.source_tree.nodes[0].center;
  dispatch_core(core, [&](auto c) {
    constexpr Core C = decltype(c)::value;
    if (single_precision) {
      const SourceStorage<float> storage(plan.sources, C, origin);
      near_field<C>(plan, storage.arrays(), origin, gradient, out);
    } else {
      const SourceStorage<double> storage(plan.sources, C, origin);
      near_field<C>(plan, storage.arrays(), origin, gradient, out);
    }
  });
}

}  // namespace vortex::detail
