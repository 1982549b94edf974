#pragma once
// Derivatives of solid harmonics by the ladder relations, in the real degree-major storage of
// solid_harmonics.hpp. With D+ = d/dx + i d/dy, D- = d/dx - i d/dy and the negative-order
// convention X_n^{-m} = (-1)^m conj(X_n^m), for every m:
//
//   irregular:  dz I_n^m = -I_{n+1}^m,   D+ I_n^m = -I_{n+1}^{m+1},   D- I_n^m = I_{n+1}^{m-1}
//   regular:    dz R_n^m =  R_{n-1}^m,   D+ R_n^m = -R_{n-1}^{m+1},   D- R_n^m = R_{n-1}^{m-1}
//
// (R_k^l = 0 for |l| > k). With dx = (D+ + D-)/2 and dy = (D+ - D-)/(2i), writing X = C + i S
// and X' for the neighbouring degree (n+1 for I, n-1 for R), the real forms are, for m >= 1,
//
//   dx C^m = (C'^{m-1} - C'^{m+1})/2        dx S^m = (S'^{m-1} - S'^{m+1})/2
//   dy C^m = -(S'^{m+1} + S'^{m-1})/2       dy S^m = (C'^{m+1} + C'^{m-1})/2      (S'^0 = 0)
//
// and for m = 0:  dx C^0 = -C'^1,  dy C^0 = -S'^1.  dz keeps m: dz X = -X' (irregular), X'
// (regular).
//
// The "coefficient" versions apply the transposes: given an expansion f = sum_k A_k X_k they
// return the coefficients of df/dx, df/dy, df/dz in the neighbouring degrees.

#include "vortex/math/hd.hpp"
#include "vortex/multipole/solid_harmonics.hpp"

namespace vortex::multipole {

namespace detail {
// Cos / sin part of harmonic (n, m >= 0) from a degree-major array, zero outside 0 <= m <= n.
template <class T>
VORTEX_HD T cos_part(const T* X, int n, int m) {
  return (n >= 0 && m <= n) ? X[cos_index(n, m)] : T(0);
}
template <class T>
VORTEX_HD T sin_part(const T* X, int n, int m) {
  return (n >= 0 && m >= 1 && m <= n) ? X[sin_index(n, m)] : T(0);
}

// Gradient of each harmonic of degree n <= p, taken from the neighbour degree n + s (s = +1
// irregular, -1 regular); zsign is the sign of the dz relation.
template <class T>
VORTEX_HD void harmonic_derivatives(int p, int s, T zsign, const T* X, T* Dx, T* Dy, T* Dz) {
  const T h = T(0.5);
  for (int n = 0; n <= p; ++n) {
    const int q = n + s;
    Dz[cos_index(n, 0)] = zsign * cos_part(X, q, 0);
    Dx[cos_index(n, 0)] = -cos_part(X, q, 1);
    Dy[cos_index(n, 0)] = -sin_part(X, q, 1);
    for (int m = 1; m <= n; ++m) {
      const T cm = cos_part(X, q, m - 1), cp = cos_part(X, q, m + 1);
      const T sm = sin_part(X, q, m - 1), sp = sin_part(X, q, m + 1);
      Dz[cos_index(n, m)] = zsign * cos_part(X, q, m);
      Dz[sin_index(n, m)] = zsign * sin_part(X, q, m);
      Dx[cos_index(n, m)] = h * (cm - cp);
      Dx[sin_index(n, m)] = h * (sm - sp);
      Dy[cos_index(n, m)] = -h * (sp + sm);
      Dy[sin_index(n, m)] = h * (cp + cm);
    }
  }
}

// Transpose of harmonic_derivatives: B (degrees 0..p+s, zeroed here) receive the coefficients of
// the derivatives of sum_k A_k X_k (degrees 0..p).
template <class T>
VORTEX_HD void coefficient_derivatives(int p, int s, T zsign, const T* A, T* Bx, T* By, T* Bz) {
  const int q_max = p + s;
  if (q_max < 0) return;
  for (int k = 0; k < coefficient_count(q_max); ++k) Bx[k] = By[k] = Bz[k] = T(0);
  const T h = T(0.5);
  for (int n = 0; n <= p; ++n) {
    const int q = n + s;
    if (q < 0) continue;
    // Each harmonic's derivative scatters its coefficient onto the neighbour-degree terms that
    // exist (m' <= q); missing terms are identically zero.
    auto addc = [&](T* B, int m, T v) {
      if (m <= q) B[cos_index(q, m)] += v;
    };
    auto adds = [&](T* B, int m, T v) {
      if (m >= 1 && m <= q) B[sin_index(q, m)] += v;
    };
    const T a0 = A[cos_index(n, 0)];
    addc(Bz, 0, zsign * a0);
    addc(Bx, 1, -a0);
    adds(By, 1, -a0);
    for (int m = 1; m <= n; ++m) {
      const T ac = A[cos_index(n, m)], as = A[sin_index(n, m)];
      addc(Bz, m, zsign * ac);
      adds(Bz, m, zsign * as);
      addc(Bx, m - 1, h * ac);
      addc(Bx, m + 1, -h * ac);
      adds(Bx, m - 1, h * as);
      adds(Bx, m + 1, -h * as);
      adds(By, m + 1, -h * ac);
      adds(By, m - 1, -h * ac);
      addc(By, m + 1, h * as);
      addc(By, m - 1, h * as);
    }
  }
}
}  // namespace detail

// Gradients of the irregular harmonics of degrees 0..p, from I of degrees 0..p+1.
template <class T>
VORTEX_HD void irregular_derivatives(int p, const T* I, T* Dx, T* Dy, T* Dz) {
  detail::harmonic_derivatives(p, +1, T(-1), I, Dx, Dy, Dz);
}

// Gradients of the regular harmonics of degrees 0..p, from R of degrees 0..p (degree 0 gives 0).
template <class T>
VORTEX_HD void regular_derivatives(int p, const T* R, T* Dx, T* Dy, T* Dz) {
  detail::harmonic_derivatives(p, -1, T(1), R, Dx, Dy, Dz);
}

// f = sum_k A_k I_k (degrees 0..p)  ->  df/dx_b = sum_k B_b,k I_k (degrees 0..p+1).
template <class T>
VORTEX_HD void irregular_coefficient_derivatives(int p, const T* A, T* Bx, T* By, T* Bz) {
  detail::coefficient_derivatives(p, +1, T(-1), A, Bx, By, Bz);
}

// f = sum_k A_k R_k (degrees 0..p)  ->  df/dx_b = sum_k B_b,k R_k (degrees 0..p-1).
template <class T>
VORTEX_HD void regular_coefficient_derivatives(int p, const T* A, T* Bx, T* By, T* Bz) {
  detail::coefficient_derivatives(p, -1, T(1), A, Bx, By, Bz);
}

}  // namespace vortex::multipole
