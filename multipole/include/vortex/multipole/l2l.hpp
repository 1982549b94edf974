#pragma once
// L2L (host): a local expansion (m2l.hpp) shifted to a child's centre. The expansion is a
// polynomial of degree q, so the shift is exact: with the addition theorem
// R_k^l(t + z) = sum_{n,m} R_n^m(z) R_{k-n}^{l-m}(t) (solid_harmonics.hpp),
//
//   Lambda'_n^m = sum_{k=n..q} sum_l Lambda_k^l R_{k-n}^{l-m}(t),      t = c_child - c_parent,
//
// in the complex coefficients Lambda of m2l.hpp (Lambda^{-l} = (-1)^l conj Lambda^l).

#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/solid_harmonics.hpp"
#include "vortex/multipole/target_lanes.hpp"

namespace vortex::multipole {

namespace detail {
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
// The three components of a coefficient (and a zero) in one short vector.
template <class T>
using Components = simd::Vec<T, 4 * int(sizeof(T))>;
#pragma GCC diagnostic pop
#else
template <class T>
struct Components {
  T v[4] = {};
  T& operator[](int e) { return v[e]; }
  T operator[](int e) const { return v[e]; }
  Components operator*(T s) const { return {{v[0] * s, v[1] * s, v[2] * s, v[3] * s}}; }
  Components operator+(const Components& o) const {
    return {{v[0] + o.v[0], v[1] + o.v[1], v[2] + o.v[2], v[3] + o.v[3]}};
  }
  Components operator-(const Components& o) const {
    return {{v[0] - o.v[0], v[1] - o.v[1], v[2] - o.v[2], v[3] - o.v[3]}};
  }
  Components& operator+=(const Components& o) {
    for (int e = 0; e < 4; ++e) v[e] += o.v[e];
    return *this;
  }
};
#endif

// Lambda_k^l (any sign of l) of one component from its stored coefficients L (m2l.hpp):
// L_c = w_l Re Lambda, L_s = -w_l Im Lambda for l >= 0, Lambda^{-l} = (-1)^l conj(Lambda^l).
template <class T>
VORTEX_HD Complex<T> local_lambda(const T* L, int k, int l) {
  const int al = l < 0 ? -l : l;
  const T w = al > 0 ? T(0.5) : T(1);
  const T re = w * L[cos_index(k, al)], im = al > 0 ? -w * L[sin_index(k, al)] : T(0);
  if (l >= 0) return {re, im};
  return (al & 1) ? Complex<T>{-re, im} : Complex<T>{re, -im};
}

// Lambda'_n^m, m >= 0, of one component shifted by t: sum over k = n..q and l of
// Lambda_k^l R_{k-n}^{l-m}(t), R the regular harmonics of t up to degree q. One term of the shift:
// the host's reference loop and the device's L2L (one thread a coefficient) both sum it.
template <class T>
VORTEX_HD Complex<T> l2l_coefficient(int q, int n, int m, const T* R, const T* L) {
  T re = T(0), im = T(0);
  for (int k = n; k <= q; ++k) {
    const int d = k - n;
    const int lo = m - d > -k ? m - d : -k, hi = m + d < k ? m + d : k;
    for (int l = lo; l <= hi; ++l) {
      const Complex<T> a = local_lambda(L, k, l);
      const Complex<T> b = signed_order(R, d, l - m);
      re += a.re * b.re - a.im * b.im;
      im += a.re * b.im + a.im * b.re;
    }
  }
  return {re, im};
}

// The stored coefficients of Lambda_n^m (m >= 0) added to L (one component).
template <class T>
VORTEX_HD void add_shifted_term(int n, int m, Complex<T> c, T* L) {
  const T w = m > 0 ? T(2) : T(1);
  L[cos_index(n, m)] += w * c.re;
  if (m > 0) L[sin_index(n, m)] -= w * c.im;
}

// L2L term by term (the reference of l2l below).
template <class T>
void l2l_terms(int q, T tx, T ty, T tz, const T* parent, T* child) {
  T R[coefficient_count(kMaxLocalOrder)];
  regular_harmonics(q, tx, ty, tz, R);
  const int count = coefficient_count(q);
  for (int e = 0; e < 3; ++e)
    for (int n = 0; n <= q; ++n)
      for (int m = 0; m <= n; ++m)
        add_shifted_term(n, m, l2l_coefficient(q, n, m, R, parent + e * count), child + e * count);
}
}  // namespace detail

// Adds the three local expansions `parent` (order q), shifted by t = (tx, ty, tz) = child centre -
// parent centre, to `child` (order q).
template <class T>
void l2l(int q, T tx, T ty, T tz, const T* parent, T* child) {
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
  using C = detail::Components<T>;
  detail::check_order(q, 0, "l2l", kMaxLocalOrder);
  constexpr int kCount = coefficient_count(kMaxLocalOrder);
  const int count = coefficient_count(q);
  // R_d^j(t) and Lambda_k^l for every order, at [d^2 + d + j]; Lambda's three components in one
  // short vector, so that the innermost step is a few vector operations.
  T R[kCount], r_re[kCount], r_im[kCount];
  C a_re[kCount], a_im[kCount];
  regular_harmonics(q, tx, ty, tz, R);
  for (int d = 0; d <= q; ++d)
    for (int j = -d; j <= d; ++j) {
      const detail::Complex<T> c = detail::signed_order(R, d, j);
      r_re[d * d + d + j] = c.re;
      r_im[d * d + d + j] = c.im;
    }
  for (int k = 0; k <= q; ++k)
    for (int l = 0; l <= k; ++l) {
      const T w = l > 0 ? T(0.5) : T(1), s = (l & 1) ? T(-1) : T(1);
      C re = {}, im = {};
      for (int e = 0; e < 3; ++e) {
        re[e] = w * parent[e * count + cos_index(k, l)];
        im[e] = l > 0 ? -w * parent[e * count + sin_index(k, l)] : T(0);
      }
      a_re[k * k + k + l] = re;
      a_im[k * k + k + l] = im;
      a_re[k * k + k - l] = re * s;
      a_im[k * k + k - l] = im * (-s);
    }
  for (int n = 0; n <= q; ++n)
    for (int m = 0; m <= n; ++m) {
      C re = {}, im = {};
      for (int k = n; k <= q; ++k) {
        const int d = k - n;
        const int lo = m - d > -k ? m - d : -k, hi = m + d < k ? m + d : k;
        for (int l = lo; l <= hi; ++l) {
          const T br = r_re[d * d + d + l - m], bi = r_im[d * d + d + l - m];
          const C ar = a_re[k * k + k + l], ai = a_im[k * k + k + l];
          re += ar * br - ai * bi;
          im += ar * bi + ai * br;
        }
      }
      const T w = m > 0 ? T(2) : T(1);
      for (int e = 0; e < 3; ++e) {
        child[e * count + cos_index(n, m)] += w * re[e];
        if (m > 0) child[e * count + sin_index(n, m)] -= w * im[e];
      }
    }
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic pop
#endif
}

}  // namespace vortex::multipole
