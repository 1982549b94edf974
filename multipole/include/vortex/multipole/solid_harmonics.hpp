#pragma once
// Real regular and irregular solid harmonics, computed pole-safely from Cartesian coordinates.
//
// Normalization (P_n^m: associated Legendre functions WITHOUT the Condon-Shortley phase, so that
// P_1^1(cos t) = +sin t; complex harmonics for m >= 0):
//
//   regular    R_n^m(x) = r^n P_n^m(cos t) e^{i m phi} / (n+m)!
//   irregular  I_n^m(x) = (n-m)! P_n^m(cos t) e^{i m phi} / r^(n+1)
//
// and for negative orders R_n^{-m} = (-1)^m conj(R_n^m), I_n^{-m} = (-1)^m conj(I_n^m). With this
// choice every ladder relation has unit coefficients (ladder.hpp), the addition theorem is
// R_n^m(a+b) = sum_{k,l} R_k^l(a) R_{n-k}^{m-l}(b), and the Laplace kernel expands as
//
//   1/|x - y| = sum_{n>=0} sum_{m=-n..n} conj(R_n^m(y)) I_n^m(x),   |y| < |x|.
//
// Real storage of degrees 0..p ((p+1)^2 reals, "degree-major"): degree n occupies [n^2, (n+1)^2),
// first the cos parts Re(.)_n^m for m = 0..n at n^2 + m, then the sin parts Im(.)_n^m for
// m = 1..n at n^2 + n + m.
//
// Recurrences (x, y, z and r^2 only: no angles, no 1/sin t, exact on the z axis):
//   R_0^0 = 1,    R_m^m = (x + i y)/(2m) R_{m-1}^{m-1},   R_{m+1}^m = z R_m^m,
//   R_n^m = ((2n-1) z R_{n-1}^m - r^2 R_{n-2}^m) / (n^2 - m^2),
//   I_0^0 = 1/r,  I_m^m = (2m-1) (x + i y)/r^2 I_{m-1}^{m-1},   I_{m+1}^m = (2m+1) z/r^2 I_m^m,
//   I_n^m = ((2n-1) z I_{n-1}^m - ((n-1)^2 - m^2) I_{n-2}^m) / r^2.
// Closed forms for checks: R_m^m = (x+iy)^m / (2^m m!), I_m^m = (2m-1)!! (x+iy)^m / r^(2m+1).
//
// Magnitudes: R_n^m ~ r^n/(n+m)! and I_n^m ~ (n-m)!/r^(n+1), so float stays in range for lengths
// roughly between 1e-3 and 1e3 at p <= 10; scale the problem if it is far outside.

#include <cmath>

#include "vortex/math/constants.hpp"
#include "vortex/math/hd.hpp"

// Loops over m inside one degree unroll on the device (registers); on the CPU they stay loops,
// which vectorize.
#if defined(__CUDA_ARCH__)
#define VORTEX_HARMONICS_UNROLL_DEVICE _Pragma("unroll")
#else
#define VORTEX_HARMONICS_UNROLL_DEVICE
#endif

namespace vortex::multipole {

// Largest order accepted by the run-time dispatchers.
constexpr int kMaxOrder = kMaxMultipoleOrder;

// Reals per expansion of order p (degrees 0..p).
VORTEX_HD constexpr int coefficient_count(int p) {
  return (p + 1) * (p + 1);
}
// Degree-major positions of the cos part (m = 0..n) and sin part (m = 1..n) of degree n.
VORTEX_HD constexpr int cos_index(int n, int m) {
  return n * n + m;
}
VORTEX_HD constexpr int sin_index(int n, int m) {
  return n * n + n + m;
}

// Regular solid harmonics of degrees 0..p at (x, y, z), degree-major, into R[(p+1)^2].
template <class T>
VORTEX_HD void regular_harmonics(int p, T x, T y, T z, T* R) {
  const T r2 = x * x + y * y + z * z;
  T c = T(1), s = T(0);  // R_m^m
  for (int m = 0; m <= p; ++m) {
    if (m > 0) {
      const T f = T(1) / T(2 * m);
      const T cn = (c * x - s * y) * f;
      s = (c * y + s * x) * f;
      c = cn;
    }
    R[cos_index(m, m)] = c;
    if (m > 0) R[sin_index(m, m)] = s;
    if (m + 1 > p) break;
    T c1 = c, s1 = s;        // degree n-1
    T c2 = T(0), s2 = T(0);  // degree n-2
    for (int n = m + 1; n <= p; ++n) {
      const T a = T(2 * n - 1) * z;
      const T b = T(1) / T(n * n - m * m);
      const T cn = (a * c1 - r2 * c2) * b;
      const T sn = (a * s1 - r2 * s2) * b;
      R[cos_index(n, m)] = cn;
      if (m > 0) R[sin_index(n, m)] = sn;
      c2 = c1, s2 = s1, c1 = cn, s1 = sn;
    }
  }
}

// Square root of every lane: std::sqrt for scalars; SIMD lane types specialize it.
template <class V>
struct LaneSqrt {
  static VORTEX_HD V apply(V x) {
    using std::sqrt;
    return sqrt(x);
  }
};

// Vector lane types passed by value change the ABI between builds with and without AVX; the rows
// are inlined into one translation unit, so the note does not apply.
#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

// Irregular harmonics at d != 0, degree-major, generated one degree (row) at a time, so that a
// caller can consume row n as soon as row n+1 exists (few rows live in GPU registers). V is the
// value type: a scalar, or a SIMD vector of targets whose lanes run the same recurrences (the
// batched CPU far field, m2p_batch.hpp); S is its scalar.
template <class V, class S = V>
struct IrregularRows {
  V xs, ys, zs, inv_r2;
  // Degrees 0 and 1 into H[0..3].
  VORTEX_HD IrregularRows(V dx, V dy, V dz, V* H) {
    const V r2 = dx * dx + dy * dy + dz * dz;
    inv_r2 = S(1) / r2;
    xs = dx * inv_r2, ys = dy * inv_r2, zs = dz * inv_r2;
    const V inv_r = LaneSqrt<V>::apply(inv_r2);
    H[0] = inv_r;
    H[1] = zs * inv_r;
    H[2] = xs * inv_r;
    H[3] = ys * inv_r;
  }
  // The three-term recurrence of order m < n - 1 in degree n, from its values in degrees n-1, n-2.
  VORTEX_HD V step(int n, int m, V a, V x1, V x2) const {
    return a * x1 - S((n - 1) * (n - 1) - m * m) * inv_r2 * x2;
  }
  // Degree n >= 2 from degrees n-1 and n-2.
  VORTEX_HD void row(int n, V* H) const {
    V* c = H + n * n;                     // cos m = 0..n at c[m], sin m = 1..n at c[n + m]
    const V* c1 = H + (n - 1) * (n - 1);  // degree n-1: sin at c1[n - 1 + m]
    const V* c2 = H + (n - 2) * (n - 2);  // degree n-2: sin at c2[n - 2 + m]
    const V a = S(2 * n - 1) * zs;
    // Contiguous in m: the CPU vectorizes these two loops.
    VORTEX_HARMONICS_UNROLL_DEVICE
    for (int m = 0; m <= n - 2; ++m) c[m] = step(n, m, a, c1[m], c2[m]);
    VORTEX_HARMONICS_UNROLL_DEVICE
    for (int m = 1; m <= n - 2; ++m) c[n + m] = step(n, m, a, c1[n - 1 + m], c2[n - 2 + m]);
    diagonal(n, 0, a, H);
    diagonal(n, 1, a, H);
    diagonal(n, 2, a, H);
    diagonal(n, 3, a, H);
  }
  // Entry d of the four at orders n-1 and n of degree n (cos n-1, sin n-1, cos n, sin n).
  VORTEX_HD void diagonal(int n, int d, V a, V* H) const {
    V* c = H + n * n;
    const V* c1 = H + (n - 1) * (n - 1);
    const V cd = c1[n - 1], sd = c1[2 * n - 2];  // diagonal of degree n-1 (n >= 2: sin exists)
    const S f = S(2 * n - 1);
    if (d == 0) c[n - 1] = a * cd;
    if (d == 1) c[2 * n - 1] = a * sd;
    if (d == 2) c[n] = f * (xs * cd - ys * sd);
    if (d == 3) c[2 * n] = f * (ys * cd + xs * sd);
  }
  // Entries i = part, part + parts, ... of the 2n + 1 of degree n >= 2 (the cos orders below
  // n - 1, the sin orders below n - 1, the diagonal): a row shared by the lanes of a warp.
  VORTEX_HD void row_part(int n, V* H, int part, int parts) const {
    V* c = H + n * n;
    const V* c1 = H + (n - 1) * (n - 1);
    const V* c2 = H + (n - 2) * (n - 2);
    const V a = S(2 * n - 1) * zs;
    for (int i = part; i <= 2 * n; i += parts) {
      if (i < n - 1) {
        c[i] = step(n, i, a, c1[i], c2[i]);
      } else if (i < 2 * n - 3) {
        const int m = i - (n - 1) + 1;
        c[n + m] = step(n, m, a, c1[n - 1 + m], c2[n - 2 + m]);
      } else {
        diagonal(n, i - (2 * n - 3), a, H);
      }
    }
  }
};

// Regular harmonics, degree-major, generated one degree (row) at a time from x, y, z and r^2 (the
// recurrences above, in rows): a scalar or a SIMD vector of targets (the CPU's L2P, l2p.hpp), S its
// scalar.
template <class V, class S = V>
struct RegularRows {
  V x, y, z, r2;
  // Degrees 0 and 1 into R[0..3].
  VORTEX_HD RegularRows(V dx, V dy, V dz, V* R) : x(dx), y(dy), z(dz) {
    r2 = dx * dx + dy * dy + dz * dz;
    R[0] = dx * S(0) + S(1);
    R[1] = dz;
    R[2] = S(0.5) * dx;
    R[3] = S(0.5) * dy;
  }
  // Degree n >= 2 from degrees n-1 and n-2.
  VORTEX_HD void row(int n, V* R) const {
    V* c = R + n * n;
    const V* c1 = R + (n - 1) * (n - 1);
    const V* c2 = R + (n - 2) * (n - 2);
    const V a = S(2 * n - 1) * z;
    VORTEX_HARMONICS_UNROLL_DEVICE
    for (int m = 0; m <= n - 2; ++m) c[m] = (a * c1[m] - r2 * c2[m]) * (S(1) / S(n * n - m * m));
    VORTEX_HARMONICS_UNROLL_DEVICE
    for (int m = 1; m <= n - 2; ++m)
      c[n + m] = (a * c1[n - 1 + m] - r2 * c2[n - 2 + m]) * (S(1) / S(n * n - m * m));
    const V cd = c1[n - 1], sd = c1[2 * n - 2];  // diagonal of degree n-1
    c[n - 1] = z * cd;
    c[2 * n - 1] = z * sd;
    const S f = S(1) / S(2 * n);
    c[n] = f * (x * cd - y * sd);
    c[2 * n] = f * (y * cd + x * sd);
  }
};

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#pragma GCC diagnostic pop
#endif

// Flops of the harmonics of degrees 0..Q (adds, multiplies, divides, square roots).
constexpr long irregular_rows_flops(int Q) {
  long f = 5 + 1 + 3 + 1 + 3;  // r2, 1/r2, scaled coordinates, sqrt, degree 1
  for (int n = 2; n <= Q; ++n) f += 1 + 3 + 5 * (n - 1) + 2 + 8;
  return f;
}

// Irregular solid harmonics of degrees 0..p at (x, y, z) != 0, degree-major, into I[(p+1)^2].
template <class T>
VORTEX_HD void irregular_harmonics(int p, T x, T y, T z, T* I) {
  if (p < 1) {
    T H[4];
    IrregularRows<T>(x, y, z, H);
    I[0] = H[0];
    return;
  }
  const IrregularRows<T> rows(x, y, z, I);
  for (int n = 2; n <= p; ++n) rows.row(n, I);
}

}  // namespace vortex::multipole
