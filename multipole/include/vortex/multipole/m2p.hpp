#pragma once
// M2P: velocity and velocity gradient at a target from one box's velocity expansion (m2v in
// expansion.hpp), host and device code. The result is exactly what the sum over the box's particles
// of vortex::add_pair_velocity[_gradient]<Core::Singular> would add (no 1/(4 pi)), up to the
// truncation error.
//
// u_a = sum_k V_{a,k} I_k(d) needs the irregular harmonics of degrees 0..p+1 at d = target -
// center; the gradient d_b u_a = sum_k V_{a,k} d_b I_k(d) takes each d_b I_k from degree n+1 by the
// ladder relations (ladder.hpp), so it needs degrees up to p+2. Harmonics are generated one degree
// at a time and each degree is consumed as soon as the next exists, which keeps few of them live in
// GPU registers.

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "vortex/math/hd.hpp"
#include "vortex/math/order_dispatch.hpp"
#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/solid_harmonics.hpp"

// Loops over degrees and orders are unrolled completely: the harmonics then live in registers and
// the recurrences' independent chains interleave (about 4x faster on the CPU as well). The loops
// over m inside one degree stay loops on the CPU, where they vectorize.
#if defined(__CUDA_ARCH__)
#define VORTEX_MULTIPOLE_UNROLL _Pragma("unroll")
#elif (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define VORTEX_MULTIPOLE_UNROLL _Pragma("GCC unroll 32")
#else
#define VORTEX_MULTIPOLE_UNROLL
#endif

namespace vortex::multipole {

namespace detail {
// The three components of a velocity slot. The CPU build loads the whole 4-vector slot (the 4th
// lane is zero) into one SIMD register and keeps two sets of partial sums to hide FMA latency;
// the GPU reads three lanes and keeps one set to save registers. The two lane types have
// different names so that host objects built by different compilers never mix them.
template <class T>
struct Lanes3 {
  T v[3];
  static VORTEX_HD Lanes3 load(const T* p) { return {{p[0], p[1], p[2]}}; }
  static VORTEX_HD Lanes3 zero() { return {{T(0), T(0), T(0)}}; }
};
template <class T>
VORTEX_HD void madd(Lanes3<T>& acc, const Lanes3<T>& v, T s) {
  acc.v[0] += v.v[0] * s;
  acc.v[1] += v.v[1] * s;
  acc.v[2] += v.v[2] * s;
}
template <class T>
VORTEX_HD T lane(const Lanes3<T>& x, int a) {
  return x.v[a];
}
template <class T>
VORTEX_HD Lanes3<T> operator+(const Lanes3<T>& x, const Lanes3<T>& y) {
  return {{x.v[0] + y.v[0], x.v[1] + y.v[1], x.v[2] + y.v[2]}};
}

#if defined(__CUDACC__) || !(defined(__GNUC__) || defined(__clang__))
constexpr int kPartialSums = 1;   // per accumulator of m2p_velocity_gradient
constexpr int kVelocitySums = 1;  // m2p_velocity
template <class T>
using Lanes = Lanes3<T>;
#else
constexpr int kPartialSums = 2;
constexpr int kVelocitySums = 8;
// GCC/Clang vector extension: four lanes in one SIMD register (two on machines without AVX).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
template <class T>
struct SimdLanes {
  typedef T type __attribute__((vector_size(4 * sizeof(T))));
  type v;
  static SimdLanes load(const T* p) {
    SimdLanes x;
    __builtin_memcpy(&x.v, p, sizeof(x.v));
    return x;
  }
  static SimdLanes zero() { return SimdLanes{}; }
};
template <class T>
inline void madd(SimdLanes<T>& acc, const SimdLanes<T>& v, T s) {
  acc.v += v.v * s;
}
template <class T>
inline T lane(const SimdLanes<T>& x, int a) {
  return x.v[a];
}
template <class T>
inline SimdLanes<T> operator+(const SimdLanes<T>& x, const SimdLanes<T>& y) {
  return {x.v + y.v};
}
#pragma GCC diagnostic pop
template <class T>
using Lanes = SimdLanes<T>;
#endif
template <class T>
VORTEX_HD Lanes<T> load_lanes(const T* p) {
  return Lanes<T>::load(p);
}
template <class T>
VORTEX_HD Lanes<T> zero_lanes() {
  return Lanes<T>::zero();
}

}  // namespace detail

// Flops of one M2P call (velocity; velocity and gradient) at order p.
constexpr long m2p_velocity_flops(int p) {
  return irregular_rows_flops(p + 1) + 3L * 2 * velocity_slot_count(p);
}
constexpr long m2p_velocity_gradient_flops(int p) {
  long ladder = 0;
  for (int n = 1; n <= p + 1; ++n) ladder += 2 + 3 + 4 * (n - 1);  // m = 0, m = 1, m >= 2
  return irregular_rows_flops(p + 2) + 4L * 3 * 2 * velocity_slot_count(p) + ladder + 9 +
         6;  // final accumulation and the factors 1/2, -1
}

// Adds the velocity at d = (dx, dy, dz) = target - center from the velocity expansion V (which may
// live in GPU shared memory) to acc.u. d must not be zero. With order < P, only the first degrees
// of V are read, which are the expansion of that order: the same sums, in the same order, as
// m2p_velocity<order> (one body of code for every order, so that a GPU kernel whose boxes take
// different orders keeps one copy in its instruction cache).
//
// An expansion normalized by its box's scale b (expansion_scale.hpp) is evaluated with
// inv_scale = 1 / b: the offset becomes d / b.
template <int P, class T, class A>
VORTEX_HD void m2p_velocity(const T* V, T dx, T dy, T dz, A& acc, int order = P,
                            T inv_scale = T(1)) {
  static_assert(P >= 1 && P <= kMaxOrder, "order out of range");
  using detail::Lanes;
  constexpr int Q = P + 1;
  T H[(Q + 1) * (Q + 1)];
  const IrregularRows<T> rows(dx * inv_scale, dy * inv_scale, dz * inv_scale, H);
  // Slot j pairs with harmonic j + 1 (degree 0 has no slot); degree n holds slots n^2 - 1 ..
  // (n+1)^2 - 2, summed as soon as its harmonics exist. Partial sums, one per FMA in flight on the
  // CPU, cycle over the slots.
  constexpr int K = detail::kVelocitySums;
  Lanes<T> sum[K];
  VORTEX_MULTIPOLE_UNROLL
  for (int s = 0; s < K; ++s) sum[s] = detail::zero_lanes<T>();
  VORTEX_MULTIPOLE_UNROLL
  for (int n = 1; n <= Q; ++n) {
    if (n > order + 1) break;
    if (n >= 2) rows.row(n, H);
    const T* h = H + n * n;
    const T* v = V + 4 * (n * n - 1);
    VORTEX_MULTIPOLE_UNROLL
    for (int i = 0; i <= 2 * n; ++i)
      detail::madd(sum[(n * n - 1 + i) % K], detail::load_lanes(v + 4 * i), h[i]);
  }
  VORTEX_MULTIPOLE_UNROLL
  for (int s = 1; s < K; ++s) sum[0] = sum[0] + sum[s];
  acc.u[0] += detail::lane(sum[0], 0);
  acc.u[1] += detail::lane(sum[0], 1);
  acc.u[2] += detail::lane(sum[0], 2);
}

// Adds the velocity and its gradient (acc.du[3a+b] = du_a/dx_b) at d = target - center; order and
// inv_scale as for m2p_velocity (the gradient in d / b is 1 / b times the gradient in d).
template <int P, class T, class A>
VORTEX_HD void m2p_velocity_gradient(const T* V, T dx, T dy, T dz, A& acc, int order = P,
                                     T inv_scale = T(1)) {
  static_assert(P >= 1 && P <= kMaxOrder, "order out of range");
  using detail::Lanes;
  constexpr int Q = P + 2;
  constexpr int K = detail::kPartialSums;
  T H[(Q + 1) * (Q + 1)];
  const IrregularRows<T> rows(dx * inv_scale, dy * inv_scale, dz * inv_scale, H);
  rows.row(2, H);
  // gx, gy sum twice the x and y derivatives; gz sums minus the z derivative.
  Lanes<T> u[K], gx[K], gy[K], gz[K];
  VORTEX_MULTIPOLE_UNROLL
  for (int s = 0; s < K; ++s) u[s] = gx[s] = gy[s] = gz[s] = detail::zero_lanes<T>();
  VORTEX_MULTIPOLE_UNROLL
  for (int n = 1; n <= P + 1; ++n) {
    if (n > order + 1) break;
    if (n + 1 > 2) rows.row(n + 1, H);
    // Derivatives of the degree-n harmonics from degree n+1 (C'^m = c1[m], S'^m = s1[m]):
    //   m = 0:   dx C = -C'^1,  dy C = -S'^1
    //   m >= 1:  2 dx C^m = C'^{m-1} - C'^{m+1},  2 dy C^m = -(S'^{m+1} + S'^{m-1}),
    //            2 dx S^m = S'^{m-1} - S'^{m+1},  2 dy S^m = C'^{m+1} + C'^{m-1}   (S'^0 = 0)
    //   dz X^m = -X'^m.
    const T* h = H + n * n;
    const T* c1 = H + (n + 1) * (n + 1);
    const T* s1 = c1 + (n + 1);
    T ex[2 * Q + 1], ey[2 * Q + 1], ez[2 * Q + 1];
    ex[0] = T(-2) * c1[1];
    ey[0] = T(-2) * s1[1];
    ez[0] = c1[0];
    ex[1] = c1[0] - c1[2];
    ey[1] = -s1[2];
    ez[1] = c1[1];
    ex[n + 1] = -s1[2];
    ey[n + 1] = c1[2] + c1[0];
    ez[n + 1] = s1[1];
    VORTEX_MULTIPOLE_UNROLL
    for (int m = 2; m <= n; ++m) {
      ex[m] = c1[m - 1] - c1[m + 1];
      ey[m] = -(s1[m + 1] + s1[m - 1]);
      ez[m] = c1[m];
      ex[n + m] = s1[m - 1] - s1[m + 1];
      ey[n + m] = c1[m + 1] + c1[m - 1];
      ez[n + m] = s1[m];
    }
    const T* v = V + 4 * (n * n - 1);
    VORTEX_MULTIPOLE_UNROLL
    for (int i = 0; i <= 2 * n; ++i) {
      const int s = i % K;
      const Lanes<T> vi = detail::load_lanes(v + 4 * i);
      detail::madd(u[s], vi, h[i]);
      detail::madd(gx[s], vi, ex[i]);
      detail::madd(gy[s], vi, ey[i]);
      detail::madd(gz[s], vi, ez[i]);
    }
  }
  if (K > 1) {
    u[0] = u[0] + u[K - 1];
    gx[0] = gx[0] + gx[K - 1];
    gy[0] = gy[0] + gy[K - 1];
    gz[0] = gz[0] + gz[K - 1];
  }
  const T half = T(0.5) * inv_scale;
  VORTEX_MULTIPOLE_UNROLL
  for (int a = 0; a < 3; ++a) {
    acc.u[a] += detail::lane(u[0], a);
    acc.du[3 * a + 0] += half * detail::lane(gx[0], a);
    acc.du[3 * a + 1] += half * detail::lane(gy[0], a);
    acc.du[3 * a + 2] -= inv_scale * detail::lane(gz[0], a);
  }
}

// Host versions with a run-time order p in 1..16 (std::invalid_argument otherwise).
template <class T, class A>
void m2p_velocity(int p, const T* V, T dx, T dy, T dz, A& acc) {
  dispatch_order(p, "m2p_velocity",
                 [&](auto P) { m2p_velocity<decltype(P)::value>(V, dx, dy, dz, acc); });
}
template <class T, class A>
void m2p_velocity_gradient(int p, const T* V, T dx, T dy, T dz, A& acc) {
  dispatch_order(p, "m2p_velocity_gradient",
                 [&](auto P) { m2p_velocity_gradient<decltype(P)::value>(V, dx, dy, dz, acc); });
}

}  // namespace vortex::multipole
