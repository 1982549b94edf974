// Far field of the treecode on CPU threads, over each target leaf's far list, in double or float.
// A far box is evaluated either at the leaf's targets directly (M2P, the targets in SIMD lanes,
// multipole/batch.hpp) or, when the leaf is both full enough for it to pay and small enough for the
// local expansion to keep the accuracy of M2P, translated into one local expansion about the
// leaf's center (M2L) that is evaluated once per target at the end (L2P).

#include <algorithm>
#include <cmath>
#include <vector>

#include "../evaluation.hpp"
#include "vortex/biot_savart.hpp"
#include "vortex/multipole/batch.hpp"
#include "vortex/multipole/local.hpp"
#include "vortex/multipole/multipole.hpp"

namespace vortex::detail {

namespace {
constexpr double kInvFourPi = 0.079577471545947667884;

// Per-thread copies of one leaf's targets and accumulators in the arithmetic T, and its local
// expansion.
template <class T>
struct LeafWork {
  std::vector<T> x, y, z;
  std::vector<VelocityGradientAccumulator<T>> acc;
  std::vector<T> local, local_velocity;
};

// The far boxes in T: velocity expansions (M2P), multipoles (M2L), centers relative to the source
// root's center (like the targets).
template <class T>
struct FarBoxes {
  std::vector<T> expansions, multipoles, centers;
};

template <int P, class T>
void far_field(const TreePlan& plan, const FarBoxes<T>& boxes, double theta, bool gradient,
               VelocityField& out) {
  constexpr int Q = P + 2;  // local order that keeps M2P's accuracy (multipole/local.hpp)
  const std::size_t stride = multipole::velocity_expansion_size(P);
  const std::size_t mstride = multipole::multipole_size(P);
  // M2L pays once it costs fewer operations than M2P at every target of the leaf.
  const long m2l_cost = multipole::m2l_flops(P, Q);
  const long m2p_cost =
      gradient ? multipole::m2p_velocity_gradient_flops(P) : multipole::m2p_velocity_flops(P);
  const auto& lists = plan.lists;
  const int num_leaves = static_cast<int>(plan.target_tree.leaves.size());
  const double* origin = plan.source_tree.nodes[0].center;
#pragma omp parallel
  {
    LeafWork<T> w;
    w.local.resize(multipole::local_size(Q));
    w.local_velocity.resize(multipole::local_velocity_expansion_size(Q));
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
      const bool local_pays = theta > 0 && static_cast<long>(n) * m2p_cost > m2l_cost;
      const T leaf_center[3] = {static_cast<T>(t.center[0] - origin[0]),
                                static_cast<T>(t.center[1] - origin[1]),
                                static_cast<T>(t.center[2] - origin[2])};
      bool has_local = false;
      for (int k = first; k < last; ++k) {
        const std::size_t s = lists.far_nodes[k];
        const T* V = boxes.expansions.data() + s * stride;
        const T* c = boxes.centers.data() + 3 * s;
        if (local_pays) {
          const double tx = double(leaf_center[0]) - c[0], ty = double(leaf_center[1]) - c[1],
                       tz = double(leaf_center[2]) - c[2];
          const double R = std::sqrt(tx * tx + ty * ty + tz * tz);
          if (plan.source_tree.nodes[s].radius + t.radius <= theta * R) {
            if (!has_local) std::fill(w.local.begin(), w.local.end(), T(0));
            has_local = true;
            multipole::m2l(P, Q, T(tx), T(ty), T(tz), boxes.multipoles.data() + s * mstride,
                           w.local.data());
            continue;
          }
        }
        if (gradient)
          multipole::m2p_velocity_gradient_batch<P>(V, c, n, w.x.data(), w.y.data(), w.z.data(),
                                                    w.acc.data());
        else
          multipole::m2p_velocity_batch<P>(V, c, n, w.x.data(), w.y.data(), w.z.data(),
                                           w.acc.data());
      }
      if (has_local) {
        multipole::l2w(Q, w.local.data(), w.local_velocity.data());
        for (int i = 0; i < n; ++i) {
          const T dx = w.x[i] - leaf_center[0], dy = w.y[i] - leaf_center[1],
                  dz = w.z[i] - leaf_center[2];
          if (gradient)
            multipole::l2p_velocity_gradient<Q>(w.local_velocity.data(), dx, dy, dz, w.acc[i]);
          else
            multipole::l2p_velocity<Q>(w.local_velocity.data(), dx, dy, dz, w.acc[i]);
        }
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
void far_field_in(const TreePlan& plan, double theta, bool gradient, VelocityField& out) {
  FarBoxes<T> boxes;
  boxes.expansions.assign(plan.velocity_expansions.begin(), plan.velocity_expansions.end());
  boxes.multipoles.assign(plan.multipoles.begin(), plan.multipoles.end());
  const std::size_t num_nodes = plan.source_tree.nodes.size();
  const double* origin = plan.source_tree.nodes[0].center;
  boxes.centers.resize(3 * num_nodes);
  for (std::size_t k = 0; k < num_nodes; ++k)
    for (int d = 0; d < 3; ++d)
      boxes.centers[3 * k + d] = static_cast<T>(plan.source_tree.nodes[k].center[d] - origin[d]);
  multipole::detail::dispatch_order(plan.order, "far field", [&](auto P) {
    far_field<decltype(P)::value>(plan, boxes, theta, gradient, out);
  });
}

}  // namespace

void evaluate_far_cpu(const TreePlan& plan, double theta, bool single_precision, bool gradient,
                      VelocityField& out) {
  if (plan.lists.far_nodes.empty()) return;
  if (single_precision)
    far_field_in<float>(plan, theta, gradient, out);
  else
    far_field_in<double>(plan, theta, gradient, out);
}

}  // namespace vortex::detail
