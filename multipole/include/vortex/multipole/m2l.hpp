#pragma once
// M2L (host): a box's three multipole expansions (expansion.hpp) turned into a local expansion
// about a target node's centre; any number of source boxes add into one local expansion.
//
// A local expansion of order q about c:  psi_e(c + z) = sum_j L_{e,j} R_j(z), j degree-major over
// degrees 0..q (solid_harmonics.hpp), stored L[e * coefficient_count(q) + j], e = 0, 1, 2; the
// weights w_l and signs are folded in, so the sum is a plain dot product. With t = c_L - c_M and
// the multipole moments C of expansion.hpp, the translation
//
//   I_n^m(t + z) = sum_{k,l} (-1)^(k+l) R_k^l(z) I_{n+k}^{m-l}(t)            (|z| < |t|)
//
// (the Taylor series of I, read off the ladder relations) gives the complex local coefficients
//
//   Lambda_k^l = (-1)^(k+l) sum_{n<=p} sum_{m=-n..n} conj(C_n^m) I_{n+k}^{m-l}(t),
//
// stored as L_c = w_l Re Lambda_k^l and L_s = -w_l Im Lambda_k^l (w_0 = 1, w_{l>0} = 2), so that
// psi = sum_{l>=0} L_c Re R_k^l + L_s Im R_k^l. Lambda has the harmonics' symmetry
// Lambda^{-l} = (-1)^l conj(Lambda^l) (psi is real). Error bound: local_error.hpp.

#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/solid_harmonics.hpp"
#include "vortex/multipole/target_lanes.hpp"

namespace vortex::multipole {

// Largest local order accepted (q = p + 2 at p = kMaxOrder).
constexpr int kMaxLocalOrder = kMaxOrder + 2;

// Reals of the three local expansions of order q.
VORTEX_HD constexpr int local_size(int q) {
  return 3 * coefficient_count(q);
}

namespace detail {
// The stored (L_c, L_s) of Lambda_k^l, l >= 0, added to L (one component).
template <class T>
VORTEX_HD void add_local_term(int k, int l, T re, T im, T* L) {
  const T s = ((k + l) & 1) ? T(-1) : T(1);
  const T w = l > 0 ? T(2) : T(1);
  L[cos_index(k, l)] += s * w * re;
  if (l > 0) L[sin_index(k, l)] -= s * w * im;
}

// The irregular harmonics I (degree-major, degrees 0..P) as complex values of every order:
// I_N^j = re[N^2 + N + j] + i im[N^2 + N + j], -N <= j <= N.
template <class T>
VORTEX_HD void signed_harmonics(int P, const T* I, T* re, T* im) {
  for (int N = 0; N <= P; ++N)
    for (int j = -N; j <= N; ++j) {
      const Complex<T> c = signed_order(I, N, j);
      re[N * N + N + j] = c.re;
      im[N * N + N + j] = c.im;
    }
}

// Lambda_k^l without its sign (-1)^(k+l), l >= 0, of the three components: the sums over the
// multipole moments M (order p, component e at M + e count) of conj(C_n^m) I_{n+k}^{m-l}, with
// the irregular harmonics of t of every order (Ire, Iim: signed_harmonics, degrees up to p + k).
// The orders m and -m go together (C^{-m} = (-1)^m conj C^m): with C^m = cr + i ci,
// I^{m-l} = u + i v, I^{m+l} = g + i h, s = (-1)^l,
//   conj(C^m) I^{m-l} + conj(C^{-m}) I^{-m-l} = cr (u + s g) + ci (v + s h)
//                                            + i [cr (v - s h) - ci (u - s g)],
// the four combinations of I shared by the three components. One coefficient of the translation:
// the host's reference loop and the device's M2L (one thread a coefficient) both sum it.
template <class T>
VORTEX_HD void m2l_coefficient(int p, int k, int l, const T* M, int count, const T* Ire,
                               const T* Iim, T re[3], T im[3]) {
  const T s = (l & 1) ? T(-1) : T(1);
  for (int e = 0; e < 3; ++e) re[e] = im[e] = T(0);
  for (int n = 0; n <= p; ++n) {
    const int base = (n + k) * (n + k) + (n + k);  // I_{n+k}^0
    const T x_re = Ire[base - l], x_im = Iim[base - l];
    for (int e = 0; e < 3; ++e) {
      const T c = M[e * count + cos_index(n, 0)];
      re[e] += c * x_re;
      im[e] += c * x_im;
    }
    for (int m = 1; m <= n; ++m) {
      const T u = Ire[base + m - l], v = Iim[base + m - l];
      const T g = Ire[base + m + l], h = Iim[base + m + l];
      const T p1 = u + s * g, p2 = v + s * h, p3 = v - s * h, p4 = u - s * g;
      const int jc = cos_index(n, m), js = sin_index(n, m);
      for (int e = 0; e < 3; ++e) {
        const T cr = M[e * count + jc], ci = M[e * count + js];
        re[e] += cr * p1 + ci * p2;
        im[e] += cr * p3 - ci * p4;
      }
    }
  }
}

// M2L term by term (the reference of the lanes below, and the fallback).
template <class T>
void m2l_terms(int p, int q, T tx, T ty, T tz, const T* M, T* L) {
  constexpr int kCount = coefficient_count(kMaxOrder + kMaxLocalOrder);
  T I[kCount], Ire[kCount], Iim[kCount];
  irregular_harmonics(p + q, tx, ty, tz, I);
  signed_harmonics(p + q, I, Ire, Iim);
  const int count = coefficient_count(p), countL = coefficient_count(q);
  for (int k = 0; k <= q; ++k)
    for (int l = 0; l <= k; ++l) {
      T re[3], im[3];
      m2l_coefficient(p, k, l, M, count, Ire, Iim, re, im);
      for (int e = 0; e < 3; ++e) add_local_term(k, l, re[e], im[e], L + e * countL);
    }
}
}  // namespace detail

// Adds to the local expansions L (order q, about the target centre) the contribution of the three
// multipole expansions M (order p): (tx, ty, tz) = local centre - multipole centre, |t| larger than
// the sum of the two radii.
//
// With GCC vector extensions, consecutive l go in SIMD lanes and the orders m and -m are paired
// (C^{-m} = (-1)^m conj C^m): with C^m = cr + i ci, I_N^{m-l} = u + i v, I_N^{m+l} = g + i h,
// s = (-1)^l,
//   conj(C^m) I^{m-l} + conj(C^{-m}) I^{-m-l} = cr (u + s g) + ci (v + s h)
//                                            + i [cr (v - s h) - ci (u - s g)],
// where the four combinations of I are shared by the three components.
template <class T, int B = simd_bytes()>
void m2l(int p, int q, T tx, T ty, T tz, const T* M, T* L) {
  detail::check_order(p, 0, "m2l");
  detail::check_order(q, 0, "m2l (local order)", kMaxLocalOrder);
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  using Vec = simd::Vec<T, B>;
  constexpr int W = simd::Lanes<T, B>::W;
  constexpr int kRoom = coefficient_count(kMaxOrder + kMaxLocalOrder) + W;
  const int count = coefficient_count(p);
  const int nI = p + q;
  // I_N^m(t) at [N^2 + N + m] (fwd) and I_N^{-m} at the same place (rev), all orders m; a margin
  // of W behind keeps the lane loads of the last degree in range.
  T I[coefficient_count(kMaxOrder + kMaxLocalOrder)];
  T fwd_re[kRoom], fwd_im[kRoom], rev_re[kRoom], rev_im[kRoom];
  irregular_harmonics(nI, tx, ty, tz, I);
  const int countI = coefficient_count(nI);
  for (int j = countI; j < countI + W; ++j) fwd_re[j] = fwd_im[j] = rev_re[j] = rev_im[j] = T(0);
  for (int N = 0; N <= nI; ++N)
    for (int m = -N; m <= N; ++m) {
      const detail::Complex<T> c = detail::signed_order(I, N, m);
      fwd_re[N * N + N + m] = rev_re[N * N + N - m] = c.re;
      fwd_im[N * N + N + m] = rev_im[N * N + N - m] = c.im;
    }
  Vec sign;  // (-1)^l for l = l0 + lane, l0 a multiple of W (even)
  for (int i = 0; i < W; ++i) sign[i] = (i & 1) ? T(-1) : T(1);
  const T* Mx = M;
  const T* My = M + count;
  const T* Mz = M + 2 * count;
  const int countL = coefficient_count(q);
  for (int k = 0; k <= q; ++k) {
    for (int l0 = 0; l0 <= k; l0 += W) {
      Vec re[3] = {}, im[3] = {};
      for (int n = 0; n <= p; ++n) {
        const int base = (n + k) * (n + k) + (n + k) + l0;
        {  // m = 0: C^0 is real, I^{-l} from rev
          const Vec u = simd::load<T, B>(rev_re + base), v = simd::load<T, B>(rev_im + base);
          const int j = cos_index(n, 0);
          re[0] += Mx[j] * u, im[0] += Mx[j] * v;
          re[1] += My[j] * u, im[1] += My[j] * v;
          re[2] += Mz[j] * u, im[2] += Mz[j] * v;
        }
        for (int m = 1; m <= n; ++m) {
          const Vec u = simd::load<T, B>(rev_re + base - m);
          const Vec v = simd::load<T, B>(rev_im + base - m);
          const Vec g = simd::load<T, B>(fwd_re + base + m);
          const Vec h = simd::load<T, B>(fwd_im + base + m);
          const Vec p1 = u + sign * g, p2 = v + sign * h;
          const Vec p3 = v - sign * h, p4 = u - sign * g;
          const int jc = cos_index(n, m), js = sin_index(n, m);
          re[0] += Mx[jc] * p1 + Mx[js] * p2, im[0] += Mx[jc] * p3 - Mx[js] * p4;
          re[1] += My[jc] * p1 + My[js] * p2, im[1] += My[jc] * p3 - My[js] * p4;
          re[2] += Mz[jc] * p1 + Mz[js] * p2, im[2] += Mz[jc] * p3 - Mz[js] * p4;
        }
      }
      for (int i = 0; i < W && l0 + i <= k; ++i)
        for (int e = 0; e < 3; ++e)
          detail::add_local_term(k, l0 + i, re[e][i], im[e][i], L + e * countL);
    }
  }
#pragma GCC diagnostic pop
#else
  detail::m2l_terms(p, q, tx, ty, tz, M, L);
#endif
}

}  // namespace vortex::multipole
