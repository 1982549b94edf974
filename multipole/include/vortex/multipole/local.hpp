#pragma once
// Local expansions: M2L (host) turns a box's multipole expansions into a local expansion about a
// target-box center, any number of source boxes adding into one; L2P (host and device) evaluates
// velocity and gradient at the targets.
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
// stored as L_c = w_l Re Lambda_k^l and L_s = -w_l Im Lambda_k^l (w_0 = 1, w_{l>0} = 2).
//
// Error bound. For sources within a of c_M, targets within b of c_L, R = |t| > a + b, per unit
// |G| (Banach's bound on the mixed directional derivatives of 1/r, |d^N (1/r)| <= N!/r^(N+1)):
//
//   |d psi|     <= sum_{n>p or k>q} C(n+k, k) a^n b^k / R^(n+k+1)
//   |d u|       <= sum_{n>p or k>q} k C(n+k, k) a^n b^(k-1) / R^(n+k+1)
//   |d grad u|F <= 3 sum_{n>p or k>q} k (k-1) C(n+k, k) a^n b^(k-2) / R^(n+k+1)
//
// i.e. velocity and gradient converge like ((a+b)/R)^(min(p, q-1)+1) and ((a+b)/R)^(min(p, q-2)+1);
// q = p + 2 matches M2P's accuracy order. local_error_bound() sums these series.

#include <cmath>
#include <type_traits>
#include <vector>

#include "vortex/hd.hpp"
#include "vortex/multipole/batch.hpp"
#include "vortex/multipole/evaluation.hpp"
#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/ladder.hpp"
#include "vortex/multipole/solid_harmonics.hpp"

namespace vortex::multipole {

// Largest local order accepted by the run-time dispatchers (q = p + 2 at p = kMaxOrder).
constexpr int kMaxLocalOrder = kMaxOrder + 2;

// Reals of the three local expansions of order q.
VORTEX_HD constexpr int local_size(int q) {
  return 3 * coefficient_count(q);
}

// Local velocity expansion (input of L2P): u_a(c + z) = sum_j W_{a,j} R_j(z) over degrees 0..q-1,
// the curl applied. Slot j holds harmonic j at W[4 j + a] (a = 0, 1, 2) and a zero at W[4 j + 3].
VORTEX_HD constexpr int local_velocity_slot_count(int q) {
  return q * q;
}
VORTEX_HD constexpr int local_velocity_expansion_size(int q) {
  return 4 * local_velocity_slot_count(q);
}

// The bound above on |error| per unit |G|: of psi (derivative 0), of the velocity (1) or of the
// Frobenius norm of the gradient (2), for M2L of order p -> q followed by L2P; a + b < R.
inline double local_error_bound(int p, int q, double a, double b, double R, int derivative) {
  const int d = derivative, n_max = p + q + 400;
  double sum = 0;
  double an = 1 / R;  // a^n / R^(n+1)
  for (int n = 0; n <= n_max; ++n, an *= a / R) {
    double binom = 1;  // C(n+k, k) at k = d
    for (int i = 1; i <= d; ++i) binom = binom * (n + i) / i;
    double bk = std::pow(R, -d);  // b^(k-d) / R^k
    for (int k = d; k <= n_max; ++k) {
      if (n > p || k > q) {
        double falling = 1;  // k!/(k-d)!
        for (int i = 0; i < d; ++i) falling *= k - i;
        sum += binom * falling * an * bk;
      }
      binom = binom * (n + k + 1) / (k + 1);
      bk *= b / R;
    }
  }
  return d == 2 ? 3 * sum : sum;
}

namespace detail {
// Complex values of X_N^m for all -N <= m <= N at [N^2 + N + m] (X^{-m} = (-1)^m conj(X^m)).
template <class T>
void full_orders(int nmax, const T* X, T* re, T* im) {
  for (int n = 0; n <= nmax; ++n)
    for (int m = -n; m <= n; ++m) {
      const Complex<T> c = signed_order(X, n, m);
      re[n * n + n + m] = c.re;
      im[n * n + n + m] = c.im;
    }
}
}  // namespace detail

namespace detail {
// M2L term by term over all orders m, the three components in lanes (portable version).
template <class T>
void m2l_generic(int p, int q, T tx, T ty, T tz, const T* M, T* L) {
  using Lanes = detail::Lanes<T>;
  const int count = coefficient_count(p);
  const int nI = p + q;
  // conj(C_n^m) of the three components in lanes, all orders m.
  std::vector<T> a_re(4 * count), a_im(4 * count);
  {
    std::vector<T> re(count), im(count);
    for (int e = 0; e < 3; ++e) {
      detail::full_orders(p, M + e * count, re.data(), im.data());
      for (int j = 0; j < count; ++j) {
        a_re[4 * j + e] = re[j];
        a_im[4 * j + e] = -im[j];
      }
    }
    for (int j = 0; j < count; ++j) a_re[4 * j + 3] = a_im[4 * j + 3] = T(0);
  }
  // I_N^m(t) for all orders; a zero margin in front keeps the block of four l below in range.
  constexpr int kBlock = 4;
  const int countI = coefficient_count(nI);
  std::vector<T> I(countI), i_re(countI + kBlock, T(0)), i_im(countI + kBlock, T(0));
  irregular_harmonics(nI, tx, ty, tz, I.data());
  detail::full_orders(nI, I.data(), i_re.data() + kBlock, i_im.data() + kBlock);
  const T* ire = i_re.data() + kBlock;
  const T* iim = i_im.data() + kBlock;
  const int countL = coefficient_count(q);
  for (int k = 0; k <= q; ++k) {
    for (int l0 = 0; l0 <= k; l0 += kBlock) {
      // Lambda_k^l for l = l0 .. l0+3 (entries past l = k are computed and dropped).
      Lanes re[kBlock], im[kBlock];
      for (int b = 0; b < kBlock; ++b) re[b] = im[b] = detail::zero_lanes<T>();
      for (int n = 0; n <= p; ++n) {
        const int N = n + k;
        for (int m = -n; m <= n; ++m) {
          const int ja = n * n + n + m;
          const Lanes ar = detail::load_lanes(&a_re[4 * ja]);
          const Lanes ai = detail::load_lanes(&a_im[4 * ja]);
          const int ji = N * N + N + m - l0;
          for (int b = 0; b < kBlock; ++b) {
            const T xr = ire[ji - b], xi = iim[ji - b];
            detail::madd(re[b], ar, xr);
            detail::madd(re[b], ai, -xi);
            detail::madd(im[b], ar, xi);
            detail::madd(im[b], ai, xr);
          }
        }
      }
      for (int b = 0; b < kBlock && l0 + b <= k; ++b) {
        const int l = l0 + b;
        const T s = ((k + l) & 1) ? T(-1) : T(1);
        const T w = l > 0 ? T(2) : T(1);
        for (int e = 0; e < 3; ++e) {
          L[e * countL + cos_index(k, l)] += s * w * detail::lane(re[b], e);
          if (l > 0) L[e * countL + sin_index(k, l)] -= s * w * detail::lane(im[b], e);
        }
      }
    }
  }
}
}  // namespace detail

// Adds to the local expansions L (order q, about the target-box center) the contribution of the
// three multipole expansions M (order p): (tx, ty, tz) = local center - multipole center.
//
// The CPU version pairs the orders m and -m (C^{-m} = (-1)^m conj C^m) and puts consecutive l in
// SIMD lanes: with C^m = cr + i ci, I_N^{m-l} = u + i v, I_N^{m+l} = g + i h, s = (-1)^l,
//   conj(C^m) I^{m-l} + conj(C^{-m}) I^{-m-l} = cr (u + s g) + ci (v + s h)
//                                            + i [cr (v - s h) - ci (u - s g)],
// where the four combinations of I are shared by the three components.
template <class T>
void m2l(int p, int q, T tx, T ty, T tz, const T* M, T* L) {
  detail::check_order(p, 0, "m2l");
  detail::check_order(q, 0, "m2l (local order)", kMaxLocalOrder);
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  using Vec = typename detail::TargetLanes<T>::type;
  constexpr int W = detail::TargetLanes<T>::W;
  const int count = coefficient_count(p);
  const int nI = p + q;
  const int countI = coefficient_count(nI);
  // I_N^m(t) at [N^2 + N + m] (fwd) and I_N^{-m} at the same place (rev), all orders m; a margin
  // of W behind keeps the lane loads of the last degree in range.
  std::vector<T> I(countI), buf(4 * (countI + W), T(0));
  T* fwd_re = buf.data();
  T* fwd_im = fwd_re + countI + W;
  T* rev_re = fwd_im + countI + W;
  T* rev_im = rev_re + countI + W;
  irregular_harmonics(nI, tx, ty, tz, I.data());
  for (int N = 0; N <= nI; ++N)
    for (int m = -N; m <= N; ++m) {
      const detail::Complex<T> c = detail::signed_order(I.data(), N, m);
      fwd_re[N * N + N + m] = rev_re[N * N + N - m] = c.re;
      fwd_im[N * N + N + m] = rev_im[N * N + N - m] = c.im;
    }
  auto load = [](const T* x) {
    Vec v;
    __builtin_memcpy(&v, x, sizeof(v));
    return v;
  };
  Vec sign;  // (-1)^l for l = l0 + lane, l0 even
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
          const Vec u = load(rev_re + base), v = load(rev_im + base);
          const int j = cos_index(n, 0);
          re[0] += Mx[j] * u, im[0] += Mx[j] * v;
          re[1] += My[j] * u, im[1] += My[j] * v;
          re[2] += Mz[j] * u, im[2] += Mz[j] * v;
        }
        for (int m = 1; m <= n; ++m) {
          const Vec u = load(rev_re + base - m), v = load(rev_im + base - m);
          const Vec g = load(fwd_re + base + m), h = load(fwd_im + base + m);
          const Vec p1 = u + sign * g, p2 = v + sign * h;
          const Vec p3 = v - sign * h, p4 = u - sign * g;
          const int jc = cos_index(n, m), js = sin_index(n, m);
          re[0] += Mx[jc] * p1 + Mx[js] * p2, im[0] += Mx[jc] * p3 - Mx[js] * p4;
          re[1] += My[jc] * p1 + My[js] * p2, im[1] += My[jc] * p3 - My[js] * p4;
          re[2] += Mz[jc] * p1 + Mz[js] * p2, im[2] += Mz[jc] * p3 - Mz[js] * p4;
        }
      }
      for (int i = 0; i < W && l0 + i <= k; ++i) {
        const int l = l0 + i;
        const T s = ((k + l) & 1) ? T(-1) : T(1);
        const T w = l > 0 ? T(2) : T(1);
        for (int e = 0; e < 3; ++e) {
          L[e * countL + cos_index(k, l)] += s * w * re[e][i];
          if (l > 0) L[e * countL + sin_index(k, l)] -= s * w * im[e][i];
        }
      }
    }
  }
#pragma GCC diagnostic pop
#else
  detail::m2l_generic(p, q, tx, ty, tz, M, L);
#endif
}

// Flops of one m2l(p, q) on the CPU path, counting the lanes that are kept (I(t) and set-up aside).
constexpr long m2l_flops(int p, int q) {
  return long(q + 1) * (q + 2) / 2 * (12L * (p + 1) + 16L * p * (p + 1));
}

// Local velocity expansion W[local_velocity_expansion_size(q)] (overwritten) of the three local
// expansions L of order q >= 1: u_a = eps_abc d_b psi_c, by the transposed regular ladder.
template <class T>
void l2w(int q, const T* L, T* W) {
  detail::check_order(q, 1, "l2w", kMaxLocalOrder);
  const int count = coefficient_count(q);
  const int count1 = coefficient_count(q - 1);
  std::vector<T> B(9 * count1);  // B[(3 b + e) * count1 + j]: d_b psi_e
  for (int e = 0; e < 3; ++e)
    regular_coefficient_derivatives(q, L + e * count, &B[(0 + e) * count1], &B[(3 + e) * count1],
                                    &B[(6 + e) * count1]);
  auto d = [&](int b, int e, int j) { return B[(3 * b + e) * count1 + j]; };
  for (int j = 0; j < count1; ++j) {
    T* slot = W + 4 * j;
    slot[0] = d(1, 2, j) - d(2, 1, j);
    slot[1] = d(2, 0, j) - d(0, 2, j);
    slot[2] = d(0, 1, j) - d(1, 0, j);
    slot[3] = T(0);
  }
}

namespace detail {
// Regular harmonics, degree-major, one degree at a time (recurrences of solid_harmonics.hpp).
template <class T>
struct RegularRows {
  T x, y, z, r2;
  // Degrees 0 and 1 into R[0..3].
  VORTEX_HD RegularRows(T dx, T dy, T dz, T* R) : x(dx), y(dy), z(dz) {
    r2 = dx * dx + dy * dy + dz * dz;
    R[0] = T(1);
    R[1] = dz;
    R[2] = T(0.5) * dx;
    R[3] = T(0.5) * dy;
  }
  // Degree n >= 2 from degrees n-1 and n-2.
  VORTEX_HD void row(int n, T* R) const {
    T* c = R + n * n;
    const T* c1 = R + (n - 1) * (n - 1);
    const T* c2 = R + (n - 2) * (n - 2);
    const T a = T(2 * n - 1) * z;
    VORTEX_MULTIPOLE_UNROLL_DEVICE
    for (int m = 0; m <= n - 2; ++m) {
      const T f = T(1) / T(n * n - m * m);
      c[m] = (a * c1[m] - r2 * c2[m]) * f;
      if (m > 0) c[n + m] = (a * c1[n - 1 + m] - r2 * c2[n - 2 + m]) * f;
    }
    const T cd = c1[n - 1], sd = c1[2 * n - 2];
    c[n - 1] = z * cd;
    c[2 * n - 1] = z * sd;
    const T f = T(1) / T(2 * n);
    c[n] = f * (x * cd - y * sd);
    c[2 * n] = f * (y * cd + x * sd);
  }
};
}  // namespace detail

// Adds the velocity at d = (dx, dy, dz) = target - local center from the local velocity expansion W
// of order Q (degrees 0..Q-1).
template <int Q, class T, class A>
VORTEX_HD void l2p_velocity(const T* W, T dx, T dy, T dz, A& acc) {
  static_assert(Q >= 1 && Q <= kMaxLocalOrder, "order out of range");
  T R[Q * Q + 4];
  const detail::RegularRows<T> rows(dx, dy, dz, R);
  VORTEX_MULTIPOLE_UNROLL
  for (int n = 2; n <= Q - 1; ++n) rows.row(n, R);
  T u[3] = {T(0), T(0), T(0)};
  VORTEX_MULTIPOLE_UNROLL
  for (int j = 0; j < Q * Q; ++j) {
    VORTEX_MULTIPOLE_UNROLL
    for (int a = 0; a < 3; ++a) u[a] += W[4 * j + a] * R[j];
  }
  acc.u[0] += u[0];
  acc.u[1] += u[1];
  acc.u[2] += u[2];
}

// Adds the velocity and its gradient (acc.du[3a+b] = du_a/dx_b) at d = target - local center.
template <int Q, class T, class A>
VORTEX_HD void l2p_velocity_gradient(const T* W, T dx, T dy, T dz, A& acc) {
  static_assert(Q >= 1 && Q <= kMaxLocalOrder, "order out of range");
  T R[Q * Q + 4];
  const detail::RegularRows<T> rows(dx, dy, dz, R);
  VORTEX_MULTIPOLE_UNROLL
  for (int n = 2; n <= Q - 1; ++n) rows.row(n, R);
  // gx, gy sum twice the x and y derivatives.
  T u[3], gx[3], gy[3], gz[3];
  VORTEX_MULTIPOLE_UNROLL
  for (int a = 0; a < 3; ++a) {
    u[a] = W[a] * R[0];
    gx[a] = gy[a] = gz[a] = T(0);
  }
  VORTEX_MULTIPOLE_UNROLL
  for (int n = 1; n <= Q - 1; ++n) {
    // Derivatives of degree n from degree n-1 (C'^m = c1[m], S'^m = c1[n-1+m], zero for m > n-1):
    //   m = 0:   dx C = -C'^1,  dy C = -S'^1
    //   m >= 1:  2 dx C^m = C'^{m-1} - C'^{m+1},  2 dy C^m = -(S'^{m+1} + S'^{m-1}),
    //            2 dx S^m = S'^{m-1} - S'^{m+1},  2 dy S^m = C'^{m+1} + C'^{m-1}   (S'^0 = 0)
    //   dz X^m = X'^m.
    const T* h = R + n * n;
    const T* c1 = R + (n - 1) * (n - 1);
    auto C = [&](int m) { return m <= n - 1 ? c1[m] : T(0); };
    auto S = [&](int m) { return (m >= 1 && m <= n - 1) ? c1[n - 1 + m] : T(0); };
    VORTEX_MULTIPOLE_UNROLL
    for (int i = 0; i <= 2 * n; ++i) {
      T ex, ey, ez;
      if (i == 0) {
        ex = T(-2) * C(1), ey = T(-2) * S(1), ez = C(0);
      } else if (i <= n) {
        const int m = i;
        ex = C(m - 1) - C(m + 1), ey = -(S(m + 1) + S(m - 1)), ez = C(m);
      } else {
        const int m = i - n;
        ex = S(m - 1) - S(m + 1), ey = C(m + 1) + C(m - 1), ez = S(m);
      }
      const T* w = W + 4 * (n * n + i);
      VORTEX_MULTIPOLE_UNROLL
      for (int a = 0; a < 3; ++a) {
        u[a] += w[a] * h[i];
        gx[a] += w[a] * ex;
        gy[a] += w[a] * ey;
        gz[a] += w[a] * ez;
      }
    }
  }
  VORTEX_MULTIPOLE_UNROLL
  for (int a = 0; a < 3; ++a) {
    acc.u[a] += u[a];
    acc.du[3 * a + 0] += T(0.5) * gx[a];
    acc.du[3 * a + 1] += T(0.5) * gy[a];
    acc.du[3 * a + 2] += gz[a];
  }
}

// Host versions with a run-time local order q in 1..kMaxLocalOrder (std::invalid_argument
// otherwise).
template <class T, class A>
void l2p_velocity(int q, const T* W, T dx, T dy, T dz, A& acc) {
  detail::dispatch_range<1, kMaxLocalOrder>(
      q, "l2p_velocity", [&](auto Q) { l2p_velocity<decltype(Q)::value>(W, dx, dy, dz, acc); });
}
template <class T, class A>
void l2p_velocity_gradient(int q, const T* W, T dx, T dy, T dz, A& acc) {
  detail::dispatch_range<1, kMaxLocalOrder>(q, "l2p_velocity_gradient", [&](auto Q) {
    l2p_velocity_gradient<decltype(Q)::value>(W, dx, dy, dz, acc);
  });
}

}  // namespace vortex::multipole
