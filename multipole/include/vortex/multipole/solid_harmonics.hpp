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

#include "vortex/hd.hpp"

namespace vortex::multipole {

// Largest order accepted by the run-time dispatchers.
constexpr int kMaxOrder = 16;

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

// Irregular solid harmonics of degrees 0..p at (x, y, z) != 0, degree-major, into I[(p+1)^2].
template <class T>
VORTEX_HD void irregular_harmonics(int p, T x, T y, T z, T* I) {
  using std::sqrt;
  const T r2 = x * x + y * y + z * z;
  const T inv_r2 = T(1) / r2;
  const T xs = x * inv_r2, ys = y * inv_r2, zs = z * inv_r2;
  T c = sqrt(inv_r2), s = T(0);  // I_m^m
  for (int m = 0; m <= p; ++m) {
    if (m > 0) {
      const T f = T(2 * m - 1);
      const T cn = (c * xs - s * ys) * f;
      s = (c * ys + s * xs) * f;
      c = cn;
    }
    I[cos_index(m, m)] = c;
    if (m > 0) I[sin_index(m, m)] = s;
    T c1 = c, s1 = s;
    T c2 = T(0), s2 = T(0);
    for (int n = m + 1; n <= p; ++n) {
      const T a = T(2 * n - 1) * zs;
      const T b = T((n - 1) * (n - 1) - m * m) * inv_r2;
      const T cn = a * c1 - b * c2;
      const T sn = a * s1 - b * s2;
      I[cos_index(n, m)] = cn;
      if (m > 0) I[sin_index(n, m)] = sn;
      c2 = c1, s2 = s1, c1 = cn, s1 = sn;
    }
  }
}

}  // namespace vortex::multipole
