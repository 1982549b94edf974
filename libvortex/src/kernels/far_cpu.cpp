// Far field of the treecode on CPU threads: multipole evaluation (M2P) over each target leaf's
// far list.

#include "../evaluation.hpp"
#include "vortex/biot_savart.hpp"
#include "vortex/multipole/multipole.hpp"

namespace vortex::detail {

namespace {
constexpr double kInvFourPi = 0.079577471545947667884;
}

void evaluate_far_cpu(const TreePlan& plan, bool gradient, VelocityField& out) {
  const int p = plan.order;
  const std::size_t stride = multipole::velocity_expansion_size(p);
  const auto& lists = plan.lists;
  const int num_leaves = static_cast<int>(plan.target_tree.leaves.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (int leaf = 0; leaf < num_leaves; ++leaf) {
    const KdNode& t = plan.target_tree.nodes[plan.target_tree.leaves[leaf]];
    const int first = lists.far_offsets[leaf], last = lists.far_offsets[leaf + 1];
    if (first == last) continue;
    for (int i = t.begin; i < t.end; ++i) {
      const double tx = plan.targets.x[i], ty = plan.targets.y[i], tz = plan.targets.z[i];
      VelocityGradientAccumulator<double> acc;
      for (int k = first; k < last; ++k) {
        const int s = lists.far_nodes[k];
        const KdNode& box = plan.source_tree.nodes[s];
        const double* V = plan.velocity_expansions.data() + s * stride;
        const double dx = tx - box.center[0], dy = ty - box.center[1], dz = tz - box.center[2];
        if (gradient)
          multipole::m2p_velocity_gradient(p, V, dx, dy, dz, acc);
        else
          multipole::m2p_velocity(p, V, dx, dy, dz, acc);
      }
      for (int a = 0; a < 3; ++a) out.u[a][i] += kInvFourPi * acc.u[a];
      if (gradient)
        for (int k = 0; k < 9; ++k) out.du[k][i] += kInvFourPi * acc.du[k];
    }
  }
}

}  // namespace vortex::detail
