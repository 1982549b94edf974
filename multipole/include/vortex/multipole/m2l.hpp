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
// the four combinations of I shared by the three components.
//
// L consecutive orders l = l0 .. l0 + L - 1 at once (re[i], im[i] for l0 + i): from one m to the
// next, I^{m-l} of order l is I^{(m-1)-(l-1)} of order l - 1 and I^{m+l} is I^{(m-1)+(l+1)}, so
// each m reads two new harmonics for all L orders, and the moments once. The harmonics in hand
// are kept in rings of L (u_i(m) in slot (m - i) mod L, g_i(m) in slot (m + i) mod L), and the m
// loop is unrolled by L so that every slot is a fixed register. Orders past k read entries of
// neighbouring degrees (up to L - 1 entries before Ire[0] and after the last degree's row must be
// readable); their sums are not used. The reference loop (m2l_terms) takes one order at a time;
// the backends' M2L turns the translation onto the z axis instead (m2l_rotation.hpp).
template <class T, int L>
VORTEX_HD void m2l_coefficients(int p, int k, int l0, const T* M, int count, const T* Ire,
                                const T* Iim, T re[][3], T im[][3]) {
  T s[L];
  VORTEX_UNROLL
  for (int i = 0; i < L; ++i) {
    s[i] = ((l0 + i) & 1) ? T(-1) : T(1);
    for (int e = 0; e < 3; ++e) re[i][e] = im[i][e] = T(0);
  }
  for (int n = 0; n <= p; ++n) {
    const int base = (n + k) * (n + k) + (n + k);          // I_{n+k}^0
    const T *ur = Ire + base - l0, *ui = Iim + base - l0;  // u_i(m) = ur[m - i] + i ui[m - i]
    const T *gr = Ire + base + l0, *gi = Iim + base + l0;  // g_i(m) = gr[m + i] + i gi[m + i]
    const T* C =
        M + n * n;  // degree n: cos of order m at C[e count + m], sin at C[e count + n + m]
    T U[L], V[L], G[L], H[L];
    VORTEX_UNROLL
    for (int i = 0; i < L; ++i) {
      U[(L - i) % L] = ur[-i], V[(L - i) % L] = ui[-i];
      G[i] = gr[i], H[i] = gi[i];
    }
    VORTEX_UNROLL
    for (int e = 0; e < 3; ++e) {
      const T c = C[e * count];
      VORTEX_UNROLL
      for (int i = 0; i < L; ++i) re[i][e] += c * U[(L - i) % L], im[i][e] += c * V[(L - i) % L];
    }
    // One m: its two new harmonics into the rings' slots of phase r = (m - 1) mod L, its moments,
    // then each order's terms as fused multiply-adds into the sums.
    const auto step = [&](int r, int m) {
      U[(1 + r) % L] = ur[m], V[(1 + r) % L] = ui[m];
      G[r] = gr[m + L - 1], H[r] = gi[m + L - 1];
      T cr[3], ci[3];
      VORTEX_UNROLL
      for (int e = 0; e < 3; ++e) cr[e] = C[e * count + m], ci[e] = C[e * count + n + m];
      VORTEX_UNROLL
      for (int i = 0; i < L; ++i) {
        const int a = (1 + r - i + L) % L, b = (1 + r + i) % L;
        const T p1 = U[a] + s[i] * G[b], p2 = V[a] + s[i] * H[b];
        const T p3 = V[a] - s[i] * H[b], p4 = U[a] - s[i] * G[b];
        VORTEX_UNROLL
        for (int e = 0; e < 3; ++e) {
          re[i][e] += cr[e] * p1;
          re[i][e] += ci[e] * p2;
          im[i][e] += cr[e] * p3;
          im[i][e] -= ci[e] * p4;
        }
      }
    };
    int m0 = 1;
    for (; m0 + L - 1 <= n; m0 += L) {
      VORTEX_UNROLL
      for (int r = 0; r < L; ++r) step(r, m0 + r);
    }
    VORTEX_UNROLL
    for (int r = 0; r + 1 < L; ++r)
      if (m0 + r <= n) step(r, m0 + r);
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
      T re[1][3], im[1][3];
      m2l_coefficients<T, 1>(p, k, l, M, count, Ire, Iim, re, im);
      for (int e = 0; e < 3; ++e) add_local_term(k, l, re[0][e], im[0][e], L + e * countL);
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
