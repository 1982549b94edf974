#pragma once
// M2P of one box at many targets on the CPU: the targets go in SIMD lanes (4 doubles or 8 floats
// per AVX register), so the harmonic recurrences and the contractions are purely vertical vector
// arithmetic. Same result as calling m2p_velocity[_gradient] (m2p.hpp) once per target.
// Host only; compilers without GCC vector extensions fall back to the per-target loop.

#include <algorithm>
#include <cmath>

#include "vortex/multipole/m2p.hpp"

namespace vortex::multipole {

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define VORTEX_MULTIPOLE_BATCH_SIMD 1
#endif

#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
namespace detail {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

// W targets per register.
template <class T>
struct TargetLanes {
  static constexpr int W = 32 / int(sizeof(T));
  typedef T type __attribute__((vector_size(32)));
};

// Lane-wise square root of a vector of targets.
template <class T>
struct VectorSqrt {
  using Vec = typename TargetLanes<T>::type;
  static Vec apply(Vec x) {
    for (int i = 0; i < TargetLanes<T>::W; ++i) x[i] = std::sqrt(x[i]);
    return x;
  }
};
}  // namespace detail
template <>
struct LaneSqrt<detail::TargetLanes<double>::type> : detail::VectorSqrt<double> {};
template <>
struct LaneSqrt<detail::TargetLanes<float>::type> : detail::VectorSqrt<float> {};
namespace detail {

// Loads up to W target offsets d = x - c; missing lanes repeat the last target (results dropped).
template <class T, class Vec = typename TargetLanes<T>::type>
inline void load_offsets(int count, const T* x, const T* y, const T* z, const T* c, Vec& dx,
                         Vec& dy, Vec& dz) {
  constexpr int W = TargetLanes<T>::W;
  for (int i = 0; i < W; ++i) {
    const int j = i < count ? i : count - 1;
    dx[i] = x[j] - c[0];
    dy[i] = y[j] - c[1];
    dz[i] = z[j] - c[2];
  }
}

// Degrees 0..Q for W targets: the one row recurrence (solid_harmonics.hpp) on vectors of targets.
template <int Q, class T, class Vec = typename TargetLanes<T>::type>
inline void irregular_rows_lanes(const Vec& dx, const Vec& dy, const Vec& dz, Vec* H) {
  const IrregularRows<Vec, T> rows(dx, dy, dz, H);
  VORTEX_MULTIPOLE_UNROLL
  for (int n = 2; n <= Q; ++n) rows.row(n, H);
}
#pragma GCC diagnostic pop
}  // namespace detail
#endif

// Adds to acc[i].u, i < count, the velocity at targets (x[i], y[i], z[i]) of the box with velocity
// expansion V centered at c[3].
template <int P, class T, class A>
void m2p_velocity_batch(const T* V, const T* c, int count, const T* x, const T* y, const T* z,
                        A* acc) {
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  using Vec = typename detail::TargetLanes<T>::type;
  constexpr int W = detail::TargetLanes<T>::W;
  constexpr int Q = P + 1;
  constexpr int S = velocity_slot_count(P);
  for (int first = 0; first < count; first += W) {
    const int n = std::min(W, count - first);
    Vec dx, dy, dz;
    detail::load_offsets(n, x + first, y + first, z + first, c, dx, dy, dz);
    Vec H[(Q + 1) * (Q + 1)];
    detail::irregular_rows_lanes<Q, T>(dx, dy, dz, H);
    // Two partial sums (even and odd slots) per component.
    Vec u0 = {}, u1 = {}, u2 = {}, w0 = {}, w1 = {}, w2 = {};
    int j = 0;
    for (; j + 1 < S; j += 2) {
      const T* v = V + 4 * j;
      u0 += v[0] * H[j + 1];
      u1 += v[1] * H[j + 1];
      u2 += v[2] * H[j + 1];
      w0 += v[4] * H[j + 2];
      w1 += v[5] * H[j + 2];
      w2 += v[6] * H[j + 2];
    }
    if (j < S) {
      const T* v = V + 4 * j;
      u0 += v[0] * H[j + 1];
      u1 += v[1] * H[j + 1];
      u2 += v[2] * H[j + 1];
    }
    u0 += w0, u1 += w1, u2 += w2;
    for (int i = 0; i < n; ++i) {
      acc[first + i].u[0] += u0[i];
      acc[first + i].u[1] += u1[i];
      acc[first + i].u[2] += u2[i];
    }
  }
#pragma GCC diagnostic pop
#else
  for (int i = 0; i < count; ++i) m2p_velocity<P>(V, x[i] - c[0], y[i] - c[1], z[i] - c[2], acc[i]);
#endif
}

// Adds to acc[i].u and acc[i].du, i < count, the velocity and its gradient at targets
// (x[i], y[i], z[i]) of the box with velocity expansion V centered at c[3].
template <int P, class T, class A>
void m2p_velocity_gradient_batch(const T* V, const T* c, int count, const T* x, const T* y,
                                 const T* z, A* acc) {
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  using Vec = typename detail::TargetLanes<T>::type;
  constexpr int W = detail::TargetLanes<T>::W;
  constexpr int Q = P + 2;
  for (int first = 0; first < count; first += W) {
    const int cnt = std::min(W, count - first);
    Vec dx, dy, dz;
    detail::load_offsets(cnt, x + first, y + first, z + first, c, dx, dy, dz);
    Vec H[(Q + 1) * (Q + 1)];
    detail::irregular_rows_lanes<Q, T>(dx, dy, dz, H);
    // gx, gy sum twice the x and y derivatives, gz minus the z derivative (see evaluation.hpp).
    Vec u[3] = {}, gx[3] = {}, gy[3] = {}, gz[3] = {};
    for (int n = 1; n <= P + 1; ++n) {
      const Vec* h = H + n * n;
      const Vec* c1 = H + (n + 1) * (n + 1);
      const Vec* s1 = c1 + (n + 1);
      Vec ex[2 * Q + 1], ey[2 * Q + 1];
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
      const T* v = V + 4 * (n * n - 1);
      for (int i = 0; i <= 2 * n; ++i, v += 4) {
        // dz of entry i (cos m = i, or sin m = i - n) is minus the same entry of degree n+1.
        const Vec ez = c1[i <= n ? i : i + 1];
        for (int a = 0; a < 3; ++a) {
          u[a] += v[a] * h[i];
          gx[a] += v[a] * ex[i];
          gy[a] += v[a] * ey[i];
          gz[a] += v[a] * ez;
        }
      }
    }
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < cnt; ++i) {
        A& r = acc[first + i];
        r.u[a] += u[a][i];
        r.du[3 * a + 0] += T(0.5) * gx[a][i];
        r.du[3 * a + 1] += T(0.5) * gy[a][i];
        r.du[3 * a + 2] -= gz[a][i];
      }
  }
#pragma GCC diagnostic pop
#else
  for (int i = 0; i < count; ++i)
    m2p_velocity_gradient<P>(V, x[i] - c[0], y[i] - c[1], z[i] - c[2], acc[i]);
#endif
}

}  // namespace vortex::multipole
