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

template <Core C>
void near_field(const TreePlan& plan, const SourceArrays& s, bool gradient, VelocityField& out) {
  const int num_leaves = static_cast<int>(plan.target_tree.leaves.size());
#pragma omp parallel
  {
    std::vector<Range> ranges;
#pragma omp for schedule(dynamic, 1)
    for (int leaf = 0; leaf < num_leaves; ++leaf) {
      near_ranges(plan, leaf, ranges);
      const KdNode& t = plan.target_tree.nodes[plan.target_tree.leaves[leaf]];
      for (int i = t.begin; i < t.end; ++i) {
        const double tx = plan.targets.x[i], ty = plan.targets.y[i], tz = plan.targets.z[i];
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

void evaluate_near_cpu(const TreePlan& plan, Core core, bool gradient, VelocityField& out) {
  const ParticleSet& src = plan.sources;
  std::vector<double> inv_sigma(src.size());
  for (std::size_t j = 0; j < src.size(); ++j) inv_sigma[j] = 1.0 / src.sigma[j];
  const SourceArrays s{src.x.data(),  src.y.data(),  src.z.data(),    src.gx.data(),
                       src.gy.data(), src.gz.data(), inv_sigma.data()};
  dispatch_core(core, [&](auto c) { near_field<decltype(c)::value>(plan, s, gradient, out); });
}

}  // namespace vortex::detail
