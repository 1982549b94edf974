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

namespace vortex::multipole {

// Adds the three local expansions `parent` (order q), shifted by t = (tx, ty, tz) = child centre -
// parent centre, to `child` (order q).
template <class T>
void l2l(int q, T tx, T ty, T tz, const T* parent, T* child) {
  detail::check_order(q, 0, "l2l", kMaxLocalOrder);
  constexpr int kCount = coefficient_count(kMaxLocalOrder);
  const int count = coefficient_count(q);
  // R_d^j(t) and Lambda_k^l for every order, at [d^2 + d + j]; Lambda's three components in a row
  // of four, so that the innermost loop is one short vector operation.
  T R[kCount], r_re[kCount], r_im[kCount];
  T a_re[4 * kCount], a_im[4 * kCount];
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
      for (int e = 0; e < 4; ++e) {
        const T re = e < 3 ? w * parent[e * count + cos_index(k, l)] : T(0);
        const T im = e < 3 && l > 0 ? -w * parent[e * count + sin_index(k, l)] : T(0);
        a_re[4 * (k * k + k + l) + e] = re;
        a_im[4 * (k * k + k + l) + e] = im;
        a_re[4 * (k * k + k - l) + e] = s * re;
        a_im[4 * (k * k + k - l) + e] = -s * im;
      }
    }
  for (int n = 0; n <= q; ++n)
    for (int m = 0; m <= n; ++m) {
      T re[4] = {}, im[4] = {};
      for (int k = n; k <= q; ++k) {
        const int d = k - n;
        const int lo = m - d > -k ? m - d : -k, hi = m + d < k ? m + d : k;
        for (int l = lo; l <= hi; ++l) {
          const T br = r_re[d * d + d + l - m], bi = r_im[d * d + d + l - m];
          const T* ar = a_re + 4 * (k * k + k + l);
          const T* ai = a_im + 4 * (k * k + k + l);
          for (int e = 0; e < 4; ++e) {
            re[e] += ar[e] * br - ai[e] * bi;
            im[e] += ar[e] * bi + ai[e] * br;
          }
        }
      }
      const T w = m > 0 ? T(2) : T(1);
      for (int e = 0; e < 3; ++e) {
        child[e * count + cos_index(n, m)] += w * re[e];
        if (m > 0) child[e * count + sin_index(n, m)] -= w * im[e];
      }
    }
}

}  // namespace vortex::multipole
