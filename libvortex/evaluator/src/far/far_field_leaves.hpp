#pragma once
// The far field's loop over target leaves on raw arrays: M2P of each leaf's far boxes at its
// targets in SIMD lanes (multipole/m2p_batch.hpp). Compiled once with the library's flags
// (far_field_cpu.cpp) and, in portable builds, once more per wider instruction set
// (far_field_isa.cpp), chosen at run time. Everything here has internal linkage and reads no
// standard container, so that no function compiled for a wider instruction set can stand in for the
// library's own.

#include <omp.h>

#include <cstddef>
#include <utility>

#include "tree/tree_plan.hpp"
#include "vortex/math/constants.hpp"
#include "vortex/multipole/m2p_batch.hpp"

namespace vortex::detail {

// What the loop reads and writes, as plain pointers (the arrays of a TreePlan and of the stage).
template <class T>
struct FarInputs {
  const double *tx, *ty, *tz;  // targets in target-tree order
  Origin origin;
  const KdNode* nodes;  // of the target tree
  const int* leaves;
  int num_leaves;
  const int *far_offsets, *far_nodes;
  const unsigned char* far_orders;  // each entry's order, 1..order
  const T *expansions, *centers;    // per source node: normalized expansions; center, 1 / scale
  bool gradient;
  int order;
  double* const* out;  // 12 component arrays (3 without the gradient), added to
  // Per thread: columns of `room` targets (a multiple of every lane width) and 12 * room sums.
  T* const* x;
  T* const* y;
  T* const* z;
  double* const* sums;
  int room;
};

namespace {

// The leaf's targets relative to the origin in columns padded to whole vectors of W (the last
// target repeated), and its `components` sums zeroed; returns the padded count.
template <int W, class T>
int load_leaf_targets(const double* tx, const double* ty, const double* tz, Origin origin,
                      const KdNode& t, T* x, T* y, T* z, double* sums, int components) {
  const int n = t.end - t.begin, padded = (n + W - 1) / W * W;
  for (int i = 0; i < padded; ++i) {
    const int j = t.begin + (i < n ? i : n - 1);
    x[i] = static_cast<T>(tx[j] - origin.x);
    y[i] = static_cast<T>(ty[j] - origin.y);
    z[i] = static_cast<T>(tz[j] - origin.z);
  }
  for (int i = 0; i < components * padded; ++i) sums[i] = 0;
  return padded;
}

// Adds the leaf's sums, with 1/(4 pi), to the component arrays.
inline void add_leaf_sums(const KdNode& t, const double* sums, int padded, int components,
                          double* const* out) {
  for (int c = 0; c < components; ++c)
    for (int i = 0; i < t.end - t.begin; ++i)
      out[c][t.begin + i] += kInvFourPi * sums[c * padded + i];
}

// M2P of one box at its order Q, read from the first degrees of an expansion of a higher order.
template <class T>
using BoxM2P = void (*)(const T* expansion, const T* center, const multipole::LeafLanes<T>&);
template <int Q, class T>
void box_m2p_velocity(const T* e, const T* c, const multipole::LeafLanes<T>& lanes) {
  multipole::m2p_velocity_lanes<Q>(e, c, lanes);
}
template <int Q, class T>
void box_m2p_velocity_gradient(const T* e, const T* c, const multipole::LeafLanes<T>& lanes) {
  multipole::m2p_velocity_gradient_lanes<Q>(e, c, lanes);
}
// The M2P of orders 1..sizeof...(Q), indexed by the order less one.
template <class T, int... Q>
struct BoxM2PTable {
  static constexpr BoxM2P<T> velocity[] = {&box_m2p_velocity<Q + 1, T>...};
  static constexpr BoxM2P<T> gradient[] = {&box_m2p_velocity_gradient<Q + 1, T>...};
};
template <class T, int... Q>
constexpr BoxM2PTable<T, Q...> box_m2p_table(std::integer_sequence<int, Q...>) {
  return {};
}

template <int P, class T>
void far_field_leaves(const FarInputs<T>& in) {
  using Table = decltype(box_m2p_table<T>(std::make_integer_sequence<int, P>{}));
  const BoxM2P<T>* m2p = in.gradient ? Table::gradient : Table::velocity;
  constexpr int W = multipole::target_lane_count<T>();
  const std::size_t stride =
      in.gradient ? multipole::gradient_expansion_size(P) : multipole::velocity_expansion_size(P);
  const int components = in.gradient ? 12 : 3;
#pragma omp parallel
  {
    const int thread = omp_get_thread_num();
    T* x = in.x[thread];
    T* y = in.y[thread];
    T* z = in.z[thread];
    double* sums = in.sums[thread];
#pragma omp for schedule(dynamic, 1)
    for (int leaf = 0; leaf < in.num_leaves; ++leaf) {
      const int first = in.far_offsets[leaf], last = in.far_offsets[leaf + 1];
      if (first == last) continue;
      const KdNode& t = in.nodes[in.leaves[leaf]];
      const int padded =
          load_leaf_targets<W>(in.tx, in.ty, in.tz, in.origin, t, x, y, z, sums, components);
      const multipole::LeafLanes<T> lanes{x, y, z, padded, sums};
      for (int k = first; k < last; ++k) {
        const std::size_t s = in.far_nodes[k];
        m2p[in.far_orders[k] - 1](in.expansions + s * stride, in.centers + 4 * s, lanes);
      }
      add_leaf_sums(t, sums, padded, components, in.out);
    }
  }
}

// far_field_leaves at the run-time order in.order (1..sizeof...(P), checked by the caller).
template <class T, int... P>
void far_field_leaves_at_order(const FarInputs<T>& in, std::integer_sequence<int, P...>) {
  using Loop = void (*)(const FarInputs<T>&);
  static constexpr Loop loops[] = {&far_field_leaves<P + 1, T>...};
  loops[in.order - 1](in);
}

template <class T>
void run_far_field_leaves(const FarInputs<T>& in) {
  far_field_leaves_at_order(in, std::make_integer_sequence<int, kMaxMultipoleOrder>{});
}

}  // namespace

}  // namespace vortex::detail
