// Far field of the treecode on CPU threads: multipole evaluation (M2P) over each target leaf's far
// list, the leaf's targets in SIMD lanes (multipole/batch.hpp), in double or in float.

#include <type_traits>
#include <vector>

#include "../evaluation.hpp"
#include "vortex/biot_savart.hpp"
#include "vortex/multipole/batch.hpp"
#include "vortex/multipole/multipole.hpp"

namespace vortex::detail {

namespace {
constexpr double kInvFourPi = 0.079577471545947667884;

// Per-thread copies of one leaf's targets and accumulators in the arithmetic T.
template <class T>
struct LeafWork {
  std::vector<T> x, y, z;
  std::vector<VelocityGradientAccumulator<T>> acc;
};

template <int P, class T>
void far_field(const TreePlan& plan, const T* expansions, const std::vector<T>& centers,
               bool gradient, VelocityField& out) {
  const std::size_t stride = multipole::velocity_expansion_size(P);
  const auto& lists = plan.lists;
  const int num_leaves = static_cast<int>(plan.target_tree.leaves.size());
  const double* origin = plan.source_tree.nodes[0].center;
#pragma omp parallel
  {
    LeafWork<T> w;
#pragma omp for schedule(dynamic, 1)
    for (int leaf = 0; leaf < num_leaves; ++leaf) {
      const int first = lists.far_offsets[leaf], last = lists.far_offsets[leaf + 1];
      if (first == last) continue;
      const KdNode& t = plan.target_tree.nodes[plan.target_tree.leaves[leaf]];
      const int n = t.count();
      w.x.resize(n);
      w.y.resize(n);
      w.z.resize(n);
      w.acc.assign(n, VelocityGradientAccumulator<T>{});
      for (int i = 0; i < n; ++i) {
        w.x[i] = static_cast<T>(plan.targets.x[t.begin + i] - origin[0]);
        w.y[i] = static_cast<T>(plan.targets.y[t.begin + i] - origin[1]);
        w.z[i] = static_cast<T>(plan.targets.z[t.begin + i] - origin[2]);
      }
      for (int k = first; k < last; ++k) {
        const std::size_t s = lists.far_nodes[k];
        const T* V = expansions + s * stride;
        const T* c = centers.data() + 3 * s;
        if (gradient)
          multipole::m2p_velocity_gradient_batch<P>(V, c, n, w.x.data(), w.y.data(), w.z.data(),
                                                    w.acc.data());
        else
          multipole::m2p_velocity_batch<P>(V, c, n, w.x.data(), w.y.data(), w.z.data(),
                                           w.acc.data());
      }
      for (int i = 0; i < n; ++i) {
        for (int a = 0; a < 3; ++a) out.u[a][t.begin + i] += kInvFourPi * w.acc[i].u[a];
        if (gradient)
          for (int q = 0; q < 9; ++q) out.du[q][t.begin + i] += kInvFourPi * w.acc[i].du[q];
      }
    }
  }
}

template <class T>
void far_field_in(const TreePlan& plan, bool gradient, VelocityField& out) {
  // Expansions in T (a float copy only in float); centers relative to the source root's center,
  // like the targets.
  std::vector<float> converted;
  const T* expansions;
  if constexpr (std::is_same_v<T, double>) {
    expansions = plan.velocity_expansions.data();
  } else {
    converted.assign(plan.velocity_expansions.begin(), plan.velocity_expansions.end());
    expansions = converted.data();
  }
  const std::size_t num_nodes = plan.source_tree.nodes.size();
  const double* origin = plan.source_tree.nodes[0].center;
  std::vector<T> centers(3 * num_nodes);
  for (std::size_t k = 0; k < num_nodes; ++k)
    for (int d = 0; d < 3; ++d)
      centers[3 * k + d] = static_cast<T>(plan.source_tree.nodes[k].center[d] - origin[d]);
  multipole::detail::dispatch_order(plan.order, "far field", [&](auto P) {
    far_field<decltype(P)::value>(plan, expansions, centers, gradient, out);
  });
}

}  // namespace

void evaluate_far_cpu(const TreePlan& plan, bool single_precision, bool gradient,
                      VelocityField& out) {
  if (plan.lists.far_nodes.empty()) return;
  if (single_precision)
    far_field_in<float>(plan, gradient, out);
  else
    far_field_in<double>(plan, gradient, out);
}

}  // namespace vortex::detail
