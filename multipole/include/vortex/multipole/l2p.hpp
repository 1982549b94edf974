#pragma once
// L2P (host): velocity and gradient at targets from a local expansion (m2l.hpp). As the M2P of the
// CPU far field reads a gradient expansion (gradient_expansion.hpp), L2P reads a *local gradient
// expansion*: the velocity and its gradient as plain sums over the regular harmonics,
//
//   u_a(c + z) = sum_j G_{j,a} R_j(z)   (degrees 0..q-1),
//   du_a/dx_b  = sum_j G_{j,3+3a+b} R_j(z)   (degrees 0..q-2),
//
// the curl and the derivatives taken once per local expansion on its coefficients (the transposed
// regular ladder, ladder.hpp). Slot j holds 12 reals: u, du_a/dx_b for 3a+b = 0..7 (du_z/dz from
// the trace) and a zero. Targets go in SIMD lanes (target_lanes.hpp) as in m2p_batch.hpp.

#include <algorithm>
#include <type_traits>

#include "vortex/multipole/gradient_expansion.hpp"
#include "vortex/multipole/ladder.hpp"
#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/m2p.hpp"
#include "vortex/multipole/m2p_batch.hpp"
#include "vortex/multipole/solid_harmonics.hpp"
#include "vortex/multipole/target_lanes.hpp"

namespace vortex::multipole {

// Reals of the local gradient expansion of order q >= 1 (harmonics 0 .. q^2 - 1).
constexpr int local_gradient_expansion_size(int q) {
  return gradient_slot_width() * coefficient_count(q - 1);
}

// Doubles of scratch that local_gradient_expansion_into needs at order q.
VORTEX_HD constexpr int local_gradient_scratch_size(int q) {
  return 21 * coefficient_count(q);
}

// The local gradient expansion G[local_gradient_expansion_size(q)] (overwritten) of the three
// local expansions L (order q >= 1, double) of psi, with `scratch` of
// local_gradient_scratch_size(q) doubles; `part` of `parts` callers (threads of one block, each
// with its own part, synchronized by the caller between the two steps: step 0 then step 1) share
// the work. One thread does it all with parts = 1, step = -1.
template <class T>
VORTEX_HD void local_gradient_expansion_into(int q, const double* L, T* G, double* scratch,
                                             int part = 0, int parts = 1, int step = -1) {
  constexpr int K = gradient_slot_width();
  const int count = coefficient_count(q), count1 = coefficient_count(q - 1);
  double* D = scratch;               // D[(3e + b) count]: d_b psi_e over degrees 0..q-1
  double* U = scratch + 9 * count;   // U[a count]: u_a over degrees 0..q-1
  double* E = scratch + 12 * count;  // E[(3a + d) count]: d_d u_a over degrees 0..q-2
  if (step <= 0) {
    for (int e = part; e < 3; e += parts)
      regular_coefficient_derivatives(q, L + e * count, D + 3 * e * count, D + (3 * e + 1) * count,
                                      D + (3 * e + 2) * count);
  }
  if (step == 0) return;
  for (int a = part; a < 3; a += parts) {
    const int b = (a + 1) % 3, c = (a + 2) % 3;  // u_a = d_b psi_c - d_c psi_b
    double* Ua = U + a * count;
    for (int j = 0; j < count1; ++j) {
      Ua[j] = D[(3 * c + b) * count + j] - D[(3 * b + c) * count + j];
      G[K * j + a] = T(Ua[j]);
      // This part's gradient slots (and slot 11, du_z/dz, which L2P takes from the trace).
      for (int d = 0; d < 3 && 3 + 3 * a + d < K; ++d) G[K * j + 3 + 3 * a + d] = T(0);
    }
  }
  // The gradient of u_a into slots 3 + 3a + d, 3a + d < 8.
  for (int a = part; a < 3; a += parts) {
    if (q < 2) continue;
    double* Ea = E + 3 * a * count;
    regular_coefficient_derivatives(q - 1, U + a * count, Ea, Ea + count, Ea + 2 * count);
    for (int d = 0; d < 3 && 3 * a + d < 8; ++d)
      for (int j = 0; j < coefficient_count(q - 2); ++j)
        G[K * j + 3 + 3 * a + d] = T(Ea[d * count + j]);
  }
}

// The local gradient expansion G[local_gradient_expansion_size(q)] (overwritten) of the three
// local expansions L (order q >= 1, double) of psi.
template <class T>
void local_gradient_expansion(int q, const double* L, T* G) {
  detail::check_order(q, 1, "local_gradient_expansion", kMaxLocalOrder);
  double scratch[local_gradient_scratch_size(kMaxLocalOrder)];
  local_gradient_expansion_into(q, L, G, scratch);
}

// Velocity r[0..2] and gradient r[3 + 3a + b] at z = target - centre from the local gradient
// expansion G of order Q, one target (reference for the lanes below).
template <int Q, class T, class R>
VORTEX_HD void local_gradient_expansion_at(const T* G, T dx, T dy, T dz, R r[12]) {
  constexpr int K = gradient_slot_width();
  T H[coefficient_count(Q)];
  regular_harmonics(Q - 1, dx, dy, dz, H);
  T s[11] = {};
  for (int j = 0; j < coefficient_count(Q - 1); ++j)
    for (int c = 0; c < 11; ++c) s[c] += G[K * j + c] * H[j];
  for (int c = 0; c < 11; ++c) r[c] = R(s[c]);
  r[11] = -(R(s[3]) + R(s[7]));
}

#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
namespace detail {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
// Velocity (C = 3) or velocity and gradient (C = 11 sums, out[t][11] from the trace) at NV vectors
// of targets from G. Not inlined, for the reason m2p_gradient_expansion_vectors is not.
template <int Q, int C, class T, int B, int NV, class V = simd::Vec<T, B>>
__attribute__((noinline)) void l2p_vectors(const T* G, const V* dx, const V* dy, const V* dz,
                                           V (*out)[12]) {
  constexpr int K = gradient_slot_width();
  V H[NV][coefficient_count(Q)];
  for (int t = 0; t < NV; ++t) {
    const RegularRows<V, T> rows(dx[t], dy[t], dz[t], H[t]);
    VORTEX_MULTIPOLE_UNROLL
    for (int n = 2; n <= Q - 1; ++n) rows.row(n, H[t]);
  }
  V s[NV][11] = {};
  // The gradient has no terms of degree Q-1.
  constexpr int kGradientSlots = C > 3 ? coefficient_count(Q - 2) : 0;
  for (int j = 0; j < kGradientSlots; ++j) {
    const T* g = G + K * j;
    VORTEX_MULTIPOLE_UNROLL
    for (int c = 0; c < C; ++c) VORTEX_MULTIPOLE_UNROLL
    for (int t = 0; t < NV; ++t) s[t][c] += g[c] * H[t][j];
  }
  for (int j = kGradientSlots; j < coefficient_count(Q - 1); ++j) {
    const T* g = G + K * j;
    VORTEX_MULTIPOLE_UNROLL
    for (int c = 0; c < 3; ++c) VORTEX_MULTIPOLE_UNROLL
    for (int t = 0; t < NV; ++t) s[t][c] += g[c] * H[t][j];
  }
  for (int t = 0; t < NV; ++t) {
    for (int c = 0; c < C; ++c) out[t][c] = s[t][c];
    if (C > 3) out[t][11] = -(s[t][3] + s[t][7]);  // the gradient is traceless
  }
}
#pragma GCC diagnostic pop
}  // namespace detail
#endif

// Adds the velocity (sums 0..2) or the velocity and gradient (sums 0..11) of the local gradient
// expansion G of order Q about c at the leaf's targets (LeafLanes, m2p_batch.hpp).
template <int Q, class T, int B = simd_bytes()>
void l2p_lanes(const T* G, const T* c, bool gradient, const LeafLanes<T>& t) {
  static_assert(Q >= 2 && Q <= kMaxLocalOrder, "local order out of range");
  const int components = gradient ? 12 : 3;
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  detail::for_target_vectors<T, B>(c, T(1), t, components,
                                   [&](auto nv, auto* dx, auto* dy, auto* dz, auto* out) {
                                     constexpr int N = decltype(nv)::value;
                                     if (gradient)
                                       detail::l2p_vectors<Q, 11, T, B, N>(G, dx, dy, dz, out);
                                     else
                                       detail::l2p_vectors<Q, 3, T, B, N>(G, dx, dy, dz, out);
                                   });
#pragma GCC diagnostic pop
#else
  for (int i = 0; i < t.padded; ++i) {
    double r[12];
    local_gradient_expansion_at<Q>(G, t.x[i] - c[0], t.y[i] - c[1], t.z[i] - c[2], r);
    for (int k = 0; k < components; ++k) t.sums[k * t.padded + i] += r[k];
  }
#endif
}

}  // namespace vortex::multipole
