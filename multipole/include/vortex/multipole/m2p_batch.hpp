#pragma once
// M2P of one box at many targets on the CPU: the targets go in SIMD lanes (target_lanes.hpp: 8
// doubles or 16 floats per vector on AVX-512, 4 or 8 elsewhere), so the harmonic recurrences and
// the contractions are purely vertical vector arithmetic. Same result as calling
// m2p_velocity[_gradient] (m2p.hpp) once per target.
//
// Two interfaces: *_batch adds into per-target accumulators (any count, any layout); *_lanes is the
// far field's: a leaf's targets in padded columns and the sums in double columns, so that the
// result of each box is added with vector instructions (float terms into double sums). The
// gradient of *_lanes reads the box's gradient expansion (gradient_expansion.hpp).
// Host only; compilers without GCC vector extensions fall back to the per-target loop.

#include <algorithm>

#include "vortex/math/pair_kernel.hpp"
#include "vortex/multipole/gradient_expansion.hpp"
#include "vortex/multipole/m2p.hpp"
#include "vortex/multipole/target_lanes.hpp"

namespace vortex::multipole {

#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
namespace detail {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

// Degrees 0..Q for W targets: the one row recurrence (solid_harmonics.hpp) on vectors of targets.
template <int Q, class T, class V>
inline void irregular_rows_lanes(const V& dx, const V& dy, const V& dz, V* H) {
  const IrregularRows<V, T> rows(dx, dy, dz, H);
  VORTEX_MULTIPOLE_UNROLL
  for (int n = 2; n <= Q; ++n) rows.row(n, H);
}

// Velocity u[0..2] of the box with velocity expansion V at the W targets d = target - center.
template <int P, class T, int B, class V = simd::Vec<T, B>>
inline void m2p_velocity_vector(const T* Vx, const V& dx, const V& dy, const V& dz, V u[3]) {
  constexpr int Q = P + 1;
  constexpr int S = velocity_slot_count(P);
  V H[(Q + 1) * (Q + 1)];
  irregular_rows_lanes<Q, T>(dx, dy, dz, H);
  // Two partial sums (even and odd slots) per component.
  V u0 = {}, u1 = {}, u2 = {}, w0 = {}, w1 = {}, w2 = {};
  int j = 0;
  for (; j + 1 < S; j += 2) {
    const T* v = Vx + 4 * j;
    u0 += v[0] * H[j + 1];
    u1 += v[1] * H[j + 1];
    u2 += v[2] * H[j + 1];
    w0 += v[4] * H[j + 2];
    w1 += v[5] * H[j + 2];
    w2 += v[6] * H[j + 2];
  }
  if (j < S) {
    const T* v = Vx + 4 * j;
    u0 += v[0] * H[j + 1];
    u1 += v[1] * H[j + 1];
    u2 += v[2] * H[j + 1];
  }
  u[0] = u0 + w0, u[1] = u1 + w1, u[2] = u2 + w2;
}

// Velocity out[0..2] and gradient out[3 + 3a + b] = du_a/dx_b at the W targets d, from the
// velocity expansion by the ladder relations (m2p.hpp).
template <int P, class T, int B, class V = simd::Vec<T, B>>
inline void m2p_velocity_gradient_vector(const T* Vx, const V& dx, const V& dy, const V& dz,
                                         V out[12]) {
  constexpr int Q = P + 2;
  V H[(Q + 1) * (Q + 1)];
  irregular_rows_lanes<Q, T>(dx, dy, dz, H);
  // gx, gy sum twice the x and y derivatives, gz minus the z derivative.
  V u[3] = {}, gx[3] = {}, gy[3] = {}, gz[3] = {};
  for (int n = 1; n <= P + 1; ++n) {
    const V* h = H + n * n;
    const V* c1 = H + (n + 1) * (n + 1);
    const V* s1 = c1 + (n + 1);
    V ex[2 * Q + 1], ey[2 * Q + 1];
    ex[0] = T(-2) * c1[1];
    ey[0] = T(-2) * s1[1];
    ex[1] = c1[0] - c1[2];
    ey[1] = -s1[2];
    ex[n + 1] = -s1[2];
    ey[n + 1] = c1[2] + c1[0];
    for (int m = 2; m <= n; ++m) {
      ex[m] = c1[m - 1] - c1[m + 1];
      ey[m] = -(s1[m + 1] + s1[m - 1]);
      ex[n + m] = s1[m - 1] - s1[m + 1];
      ey[n + m] = c1[m + 1] + c1[m - 1];
    }
    const T* v = Vx + 4 * (n * n - 1);
    for (int i = 0; i <= 2 * n; ++i, v += 4) {
      // dz of entry i (cos m = i, or sin m = i - n) is minus the same entry of degree n+1.
      const V ez = c1[i <= n ? i : i + 1];
      for (int a = 0; a < 3; ++a) {
        u[a] += v[a] * h[i];
        gx[a] += v[a] * ex[i];
        gy[a] += v[a] * ey[i];
        gz[a] += v[a] * ez;
      }
    }
  }
  for (int a = 0; a < 3; ++a) {
    out[a] = u[a];
    out[3 + 3 * a + 0] = T(0.5) * gx[a];
    out[3 + 3 * a + 1] = T(0.5) * gy[a];
    out[3 + 3 * a + 2] = -gz[a];
  }
}

// Velocity and gradient at NV vectors of targets from the box's gradient expansion G: every
// harmonic is read once and multiplies its 11 coefficients; the NV vectors share the coefficient
// loads (2 vectors keep 22 sums in the 32 registers of AVX-512). out[t][k] as above. Not inlined:
// inlined into the far field's loop, GCC 12 kept the sums in memory (2.3 times slower in float).
template <int P, class T, int B, int NV, class V = simd::Vec<T, B>>
__attribute__((noinline)) void m2p_gradient_expansion_vectors(const T* G, const V* dx, const V* dy,
                                                              const V* dz, V (*out)[12]) {
  constexpr int Q = P + 2;
  constexpr int K = gradient_slot_width();
  V H[NV][(Q + 1) * (Q + 1)];
  for (int t = 0; t < NV; ++t) irregular_rows_lanes<Q, T>(dx[t], dy[t], dz[t], H[t]);
  V s[NV][11] = {};
  // Degree 1 carries velocity only, degree p+2 gradient only (gradient_expansion.hpp).
  for (int k = 1; k < 4; ++k) {
    const T* g = G + K * (k - 1);
    VORTEX_MULTIPOLE_UNROLL
    for (int c = 0; c < 3; ++c) VORTEX_MULTIPOLE_UNROLL
    for (int t = 0; t < NV; ++t) s[t][c] += g[c] * H[t][k];
  }
  for (int k = 4; k < (P + 2) * (P + 2); ++k) {
    const T* g = G + K * (k - 1);
    VORTEX_MULTIPOLE_UNROLL
    for (int c = 0; c < 11; ++c) VORTEX_MULTIPOLE_UNROLL
    for (int t = 0; t < NV; ++t) s[t][c] += g[c] * H[t][k];
  }
  for (int k = (P + 2) * (P + 2); k < (Q + 1) * (Q + 1); ++k) {
    const T* g = G + K * (k - 1);
    VORTEX_MULTIPOLE_UNROLL
    for (int c = 3; c < 11; ++c) VORTEX_MULTIPOLE_UNROLL
    for (int t = 0; t < NV; ++t) s[t][c] += g[c] * H[t][k];
  }
  for (int t = 0; t < NV; ++t) {
    for (int c = 0; c < 11; ++c) out[t][c] = s[t][c];
    out[t][11] = -(s[t][3] + s[t][7]);  // the gradient is traceless
  }
}

// Up to W target offsets d = x - c; missing lanes repeat the last target (results dropped).
template <class T, int B, class V = simd::Vec<T, B>>
inline void load_offsets(int count, const T* x, const T* y, const T* z, const T* c, V& dx, V& dy,
                         V& dz) {
  for (int i = 0; i < simd::Lanes<T, B>::W; ++i) {
    const int j = i < count ? i : count - 1;
    dx[i] = x[j] - c[0];
    dy[i] = y[j] - c[1];
    dz[i] = z[j] - c[2];
  }
}
#pragma GCC diagnostic pop
}  // namespace detail
#endif

// Adds to acc[i].u, i < count, the velocity at targets (x[i], y[i], z[i]) of the box with velocity
// expansion V centered at c[3].
template <int P, class T, class A, int B = simd_bytes()>
void m2p_velocity_batch(const T* V, const T* c, int count, const T* x, const T* y, const T* z,
                        A* acc) {
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  constexpr int W = simd::Lanes<T, B>::W;
  for (int first = 0; first < count; first += W) {
    const int n = std::min(W, count - first);
    simd::Vec<T, B> dx, dy, dz, u[3];
    detail::load_offsets<T, B>(n, x + first, y + first, z + first, c, dx, dy, dz);
    detail::m2p_velocity_vector<P, T, B>(V, dx, dy, dz, u);
    for (int i = 0; i < n; ++i)
      for (int a = 0; a < 3; ++a) acc[first + i].u[a] += u[a][i];
  }
#pragma GCC diagnostic pop
#else
  for (int i = 0; i < count; ++i) m2p_velocity<P>(V, x[i] - c[0], y[i] - c[1], z[i] - c[2], acc[i]);
#endif
}

// Adds to acc[i].u and acc[i].du, i < count, the velocity and its gradient at targets
// (x[i], y[i], z[i]) of the box with velocity expansion V centered at c[3].
template <int P, class T, class A, int B = simd_bytes()>
void m2p_velocity_gradient_batch(const T* V, const T* c, int count, const T* x, const T* y,
                                 const T* z, A* acc) {
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  constexpr int W = simd::Lanes<T, B>::W;
  for (int first = 0; first < count; first += W) {
    const int n = std::min(W, count - first);
    simd::Vec<T, B> dx, dy, dz, out[12];
    detail::load_offsets<T, B>(n, x + first, y + first, z + first, c, dx, dy, dz);
    detail::m2p_velocity_gradient_vector<P, T, B>(V, dx, dy, dz, out);
    for (int i = 0; i < n; ++i) {
      A& r = acc[first + i];
      for (int a = 0; a < 3; ++a) r.u[a] += out[a][i];
      for (int q = 0; q < 9; ++q) r.du[q] += out[3 + q][i];
    }
  }
#pragma GCC diagnostic pop
#else
  for (int i = 0; i < count; ++i)
    m2p_velocity_gradient<P>(V, x[i] - c[0], y[i] - c[1], z[i] - c[2], acc[i]);
#endif
}

// A leaf's targets as the far field holds them: columns x, y, z of `padded` entries (a multiple
// of target_lane_count<T>(); the extra entries repeat a real target), and double sums in columns
// sums[k * padded + i], k = 0..2 the velocity, 3..11 the gradient (3 + 3a + b = du_a/dx_b).
template <class T>
struct LeafLanes {
  const T *x, *y, *z;
  int padded;
  double* sums;
};

#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
namespace detail {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
// The leaf's targets in vectors, two at a time where 32 vector registers hold their sums
// (AVX-512), else one: their offsets from c times s go to eval(nv, dx, dy, dz, out) (nv: the
// vectors, an integral constant), whose first `components` outputs are added to sums
// 0..components-1.
template <class T, int B, class Eval>
void for_target_vectors(const T* c, T s, const LeafLanes<T>& t, int components, Eval&& eval) {
  using V = simd::Vec<T, B>;
  constexpr int W = simd::Lanes<T, B>::W;
  constexpr int NV = B >= 64 ? 2 : 1;
  auto block = [&](auto nv, int first) {
    constexpr int N = decltype(nv)::value;
    V dx[N], dy[N], dz[N], out[N][12];
    for (int v = 0; v < N; ++v) {
      dx[v] = (simd::load<T, B>(t.x + first + v * W) - c[0]) * s;
      dy[v] = (simd::load<T, B>(t.y + first + v * W) - c[1]) * s;
      dz[v] = (simd::load<T, B>(t.z + first + v * W) - c[2]) * s;
    }
    eval(nv, dx, dy, dz, out);
    for (int v = 0; v < N; ++v)
      for (int k = 0; k < components; ++k)
        simd::add_to_double<T, B>(out[v][k], t.sums + k * t.padded + first + v * W);
  };
  int first = 0;
  for (; first + NV * W <= t.padded; first += NV * W)
    block(std::integral_constant<int, NV>{}, first);
  for (; first < t.padded; first += W) block(std::integral_constant<int, 1>{}, first);
}
#pragma GCC diagnostic pop
}  // namespace detail
#endif

// Adds the velocity of the box at the leaf's targets to sums 0..2: V its velocity expansion
// normalized by its scale b (expansion_scale.hpp), c[0..2] its center and c[3] = 1 / b.
template <int P, class T, int B = simd_bytes()>
void m2p_velocity_lanes(const T* V, const T* c, const LeafLanes<T>& t) {
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  constexpr int W = simd::Lanes<T, B>::W;
  for (int first = 0; first < t.padded; first += W) {
    const simd::Vec<T, B> dx = (simd::load<T, B>(t.x + first) - c[0]) * c[3];
    const simd::Vec<T, B> dy = (simd::load<T, B>(t.y + first) - c[1]) * c[3];
    const simd::Vec<T, B> dz = (simd::load<T, B>(t.z + first) - c[2]) * c[3];
    simd::Vec<T, B> u[3];
    detail::m2p_velocity_vector<P, T, B>(V, dx, dy, dz, u);
    for (int a = 0; a < 3; ++a) simd::add_to_double<T, B>(u[a], t.sums + a * t.padded + first);
  }
#pragma GCC diagnostic pop
#else
  for (int i = 0; i < t.padded; ++i) {
    VelocityAccumulator<T> r;
    m2p_velocity<P>(V, (t.x[i] - c[0]) * c[3], (t.y[i] - c[1]) * c[3], (t.z[i] - c[2]) * c[3], r);
    for (int a = 0; a < 3; ++a) t.sums[a * t.padded + i] += r.u[a];
  }
#endif
}

// Adds the velocity and gradient of the box at the leaf's targets to sums 0..11: G its gradient
// expansion normalized by its scale b (scale_gradient_terms), c[0..2] its center, c[3] = 1 / b.
template <int P, class T, int B = simd_bytes()>
void m2p_velocity_gradient_lanes(const T* G, const T* c, const LeafLanes<T>& t) {
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  detail::for_target_vectors<T, B>(
      c, c[3], t, 12, [&](auto nv, auto* dx, auto* dy, auto* dz, auto* out) {
        detail::m2p_gradient_expansion_vectors<P, T, B, decltype(nv)::value>(G, dx, dy, dz, out);
      });
#pragma GCC diagnostic pop
#else
  for (int i = 0; i < t.padded; ++i) {
    double r[12];
    gradient_expansion_at<P>(G, (t.x[i] - c[0]) * c[3], (t.y[i] - c[1]) * c[3],
                             (t.z[i] - c[2]) * c[3], r);
    for (int k = 0; k < 12; ++k) t.sums[k * t.padded + i] += r[k];
  }
#endif
}

}  // namespace vortex::multipole
