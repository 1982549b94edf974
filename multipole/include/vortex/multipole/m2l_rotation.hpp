#pragma once
// M2L by rotation ("point and shoot"): the multipole turned so that the translation t lies on
// +z, translated along z, and the local expansion turned back. Each step costs O(p^3) against the
// O(p^4) of the direct sum (m2l.hpp), which it equals to rounding. docs/methods/treecode.md,
// section 4, derives it.
//
// Basis. Degree n of the real harmonics (solid_harmonics.hpp) in the Schmidt normalization:
// Rs_{n,j} = nu_{n,m} R_{n,j}, nu_{n,m} = sqrt((n-m)! (n+m)!) (times sqrt 2 for m > 0), j the
// degree's cos parts m = 0..n then sin parts m = 1..n. On the unit sphere these are orthogonal
// with equal norms, so a rotation Q acts on a degree by an orthogonal matrix D(Q):
// Rs_n(Q u) = D(Q) Rs_n(u). Moments scale as Ms = nu M, and local coefficients as Ls = L / nu.
//
// Rotations. About z by a: each order m turns its (cos, sin) pair by m a. About y by b: W Z(b) W^T
// with W = D(R_x(-90 deg)), the one fixed matrix a degree (R_x(-90 deg) takes z to y). With (theta,
// phi) the angles of t, Q = R_y(-theta) R_z(-phi) takes t to |t| e_z, and
// D(Q) = W Z(-theta) W^T Z(-phi). Multipoles turn by D(Q), local coefficients back by D(Q)^T.
//
// Along z, the irregular harmonics of t = rho e_z vanish but for order 0, I_N^0 = N! / rho^(N+1),
// so each order l maps the multipole's degrees to the local's alone (both cos and sin parts):
//
//   Ls_{k,l} = sum_{n=l..p} A_{n,k,l} Ms_{n,l} / rho^(n+k+1),
//   A_{n,k,l} = (-1)^(k+l) (n+k)! / sqrt((n-l)! (n+l)! (k-l)! (k+l)!),
//
// the weights w_l of m2l.hpp and the factors sqrt 2 cancelling for l > 0.

#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "vortex/math/hd.hpp"
#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/solid_harmonics.hpp"

namespace vortex::multipole {

namespace rotation {

// Degrees the tables cover (every local order).
constexpr int kMaxDegree = kMaxLocalOrder;

// Start of degree n's (2n+1)^2 matrix among the degrees before it.
VORTEX_HD constexpr int matrix_offset(int n) {
  return n * (2 * n - 1) * (2 * n + 1) / 3;
}
// Start of order l's block of the axial factors: (q+1-l) x (p+1-l) rows k, columns n, for
// p = kMaxOrder, q = kMaxDegree.
VORTEX_HD constexpr int axial_offset(int l) {
  int o = 0;
  for (int i = 0; i < l && i <= kMaxOrder; ++i) o += (kMaxDegree + 1 - i) * (kMaxOrder + 1 - i);
  return o;
}

// A bound of W's nonzero entries of degrees 0..n - 1: a quarter of each matrix, rounded up (the
// parity blocks; a few of their entries are zeros as well).
VORTEX_HD constexpr int entry_bound(int n) {
  int b = 0;
  for (int d = 0; d < n; ++d) b += ((2 * d + 1) * (2 * d + 1) + 3) / 4;
  return b;
}

// An entry of W: its value in T and its column's degree-major position (one aligned load on a
// device).
template <class T>
struct alignas(2 * sizeof(T)) Entry {
  T value;
  int column;
};

// The fixed data of the rotations, built once on the host (m2l_rotation_tables()), copied as it
// is to a device. W is three quarters zeros (each degree's cos and sin parts of even and odd
// orders map onto one another in blocks), so it is stored by rows of its nonzero entries: row j
// of the degree-major numbering (degree n's rows at n^2 ..) holds entries start[j] ..
// start[j + 1], in double and in float. W^T likewise.
struct Tables {
  static constexpr int kRows = coefficient_count(kMaxDegree);
  static constexpr int kEntries = entry_bound(kMaxDegree + 1);
  double nu[kRows];                            // nu_{n,m} at each degree-major position
  double axial[axial_offset(kMaxDegree + 1)];  // A_{n,k,l} at axial_offset(l) + (k-l) cols + n-l
  static constexpr int kPairs = kMaxDegree * (kMaxDegree + 1) / 2;
  static constexpr int kTriangle = (kMaxDegree + 1) * (kMaxDegree + 2) / 2;
  // Indices for a device's lanes: the degree of each degree-major position; the position of the
  // cos part of each (degree n >= 1, order 1..n) in that order; the degree and order of each
  // (k, l), 0 <= l <= k, in that order.
  unsigned char degree[kRows];
  short pair[kPairs];
  unsigned char triangle_degree[kTriangle], triangle_order[kTriangle];
  int w_start[kRows + 1], wt_start[kRows + 1];
  Entry<double> w_double[kEntries], wt_double[kEntries];
  Entry<float> w_float[kEntries], wt_float[kEntries];
  float axial_float[axial_offset(kMaxDegree + 1)];
};

// Column count of order l's axial block.
VORTEX_HD constexpr int axial_columns(int l) {
  return l <= kMaxOrder ? kMaxOrder + 1 - l : 0;
}

}  // namespace rotation

namespace detail {

// Gauss-Legendre nodes and weights of n points on [-1, 1], in long double.
inline void gauss_legendre(int n, long double* x, long double* w) {
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int i = 0; i < n; ++i) {
    long double z = std::cos(pi * (i + 0.75L) / (n + 0.5L)), dp = 0;
    for (int it = 0; it < 100; ++it) {
      long double p0 = 1, p1 = z;  // P_0, P_1
      for (int k = 2; k <= n; ++k) {
        const long double p2 = ((2 * k - 1) * z * p1 - (k - 1) * p0) / k;
        p0 = p1, p1 = p2;
      }
      if (n == 1) p1 = z, p0 = 1;
      dp = n * (z * p1 - p0) / (z * z - 1);
      const long double dz = p1 / dp;
      z -= dz;
      if (std::fabs(dz) < 1e-19L) break;
    }
    x[i] = z;
    w[i] = 2 / ((1 - z * z) * dp * dp);
  }
}

// The rotation tables: W by quadrature (exact for the products of two harmonics of a degree), in
// long double, divided by the norms the same quadrature gives.
inline void build_rotation_tables(rotation::Tables& t) {
  using rotation::kMaxDegree;
  constexpr int Q = kMaxDegree;
  constexpr int count = coefficient_count(Q);
  long double fact[2 * Q + 2];
  fact[0] = 1;
  for (int i = 1; i < 2 * Q + 2; ++i) fact[i] = fact[i - 1] * i;
  long double nu[count];
  for (int n = 0; n <= Q; ++n)
    for (int m = 0; m <= n; ++m) {
      const long double v = std::sqrt(fact[n - m] * fact[n + m]) * (m > 0 ? std::sqrt(2.0L) : 1);
      nu[cos_index(n, m)] = v;
      if (m > 0) nu[sin_index(n, m)] = v;
    }
  for (int j = 0; j < count; ++j) t.nu[j] = static_cast<double>(nu[j]);
  for (int n = 0, pair = 0, tri = 0; n <= Q; ++n)
    for (int m = 0; m <= n; ++m) {
      t.degree[cos_index(n, m)] = static_cast<unsigned char>(n);
      if (m > 0) t.degree[sin_index(n, m)] = static_cast<unsigned char>(n);
      if (m > 0) t.pair[pair++] = static_cast<short>(cos_index(n, m));
      t.triangle_degree[tri] = static_cast<unsigned char>(n);
      t.triangle_order[tri++] = static_cast<unsigned char>(m);
    }

  constexpr int nmu = Q + 1, nphi = 2 * Q + 2;
  long double mu[nmu], wmu[nmu];
  gauss_legendre(nmu, mu, wmu);
  std::vector<long double> acc(rotation::matrix_offset(Q + 1), 0.0L);
  long double norm[count] = {};
  const long double pi = 3.141592653589793238462643383279502884L;
  for (int i = 0; i < nmu; ++i)
    for (int j = 0; j < nphi; ++j) {
      const long double phi = 2 * pi * j / nphi, s = std::sqrt(1 - mu[i] * mu[i]);
      const long double x = s * std::cos(phi), y = s * std::sin(phi), z = mu[i];
      long double R[count], RW[count];
      regular_harmonics(Q, x, y, z, R);
      regular_harmonics(Q, x, z, -y, RW);  // at R_x(-90 deg) u = (x, z, -y)
      for (int k = 0; k < count; ++k) R[k] *= nu[k], RW[k] *= nu[k];
      const long double w = wmu[i];
      for (int n = 0; n <= Q; ++n) {
        const int d = 2 * n + 1, o = n * n;
        long double* a = acc.data() + rotation::matrix_offset(n);
        for (int r = 0; r < d; ++r) {
          norm[o + r] += w * R[o + r] * R[o + r];
          for (int c = 0; c < d; ++c) a[r * d + c] += w * RW[o + r] * R[o + c];
        }
      }
    }
  // Entries below 1e-15 are zeros of the exact matrix (the quadrature leaves ~1e-19 there; the
  // smallest nonzero, 2^-n at the corners, is 4e-6 at n = 18).
  int nw = 0, nt = 0;
  for (int n = 0; n <= Q; ++n) {
    const int d = 2 * n + 1, o = n * n;
    const auto entry = [&](int r, int c) {
      const int i = rotation::matrix_offset(n) + r * d + c;
      return acc[i] / norm[o + c];
    };
    for (int r = 0; r < d; ++r) {
      t.w_start[o + r] = nw, t.wt_start[o + r] = nt;
      for (int c = 0; c < d; ++c) {
        const auto keep = [&](long double v, int& k, rotation::Entry<double>* ed,
                              rotation::Entry<float>* ef) {
          if (std::fabs(v) <= 1e-15L) return;
          if (k == rotation::Tables::kEntries)
            throw std::logic_error("m2l rotation: more nonzero entries than the bound");
          ed[k] = {static_cast<double>(v), o + c}, ef[k] = {static_cast<float>(v), o + c};
          ++k;
        };
        keep(entry(r, c), nw, t.w_double, t.w_float);
        keep(entry(c, r), nt, t.wt_double, t.wt_float);
      }
    }
  }
  t.w_start[count] = nw, t.wt_start[count] = nt;
  for (int l = 0; l <= Q; ++l)
    for (int k = l; k <= Q; ++k)
      for (int n = l; n <= kMaxOrder; ++n) {
        const long double a =
            fact[n + k] / std::sqrt(fact[n - l] * fact[n + l] * fact[k - l] * fact[k + l]);
        const int i = rotation::axial_offset(l) + (k - l) * rotation::axial_columns(l) + (n - l);
        t.axial[i] = static_cast<double>((((k + l) & 1) ? -a : a));
        t.axial_float[i] = static_cast<float>((((k + l) & 1) ? -a : a));
      }
}

// Lane i of v set to x (a scalar V has one lane).
template <class V, class T>
inline void set_lane(V& v, int i, T x) {
  if constexpr (std::is_arithmetic_v<V>) {
    (void)i;
    v = x;
  } else {
    v[i] = x;
  }
}

// Z(a) on degree n of the three components x[e][j]: cos(m a) = cm[m], sin(m a) = sign sm[m].
template <class V, int D>
VORTEX_HD void turn_about_z(int n, const V* cm, const V* sm, V x[3][D], double sign) {
  for (int m = 1; m <= n; ++m) {
    const V c = cm[m], s = sm[m] * sign;
    for (int e = 0; e < 3; ++e) {
      const V a = x[e][m], b = x[e][n + m];
      x[e][m] = c * a - s * b;
      x[e][n + m] = s * a + c * b;
    }
  }
}

// y = W x (transpose = false) or W^T x on degree n, three components, over W's nonzero entries.
template <class V, int D>
VORTEX_HD void apply_w(const rotation::Tables& tab, int n, const V x[3][D], V y[3][D],
                       bool transpose) {
  const int first = n * n;  // the degree's first row and column
  const rotation::Entry<double>* entry = transpose ? tab.wt_double : tab.w_double;
  const int* start = transpose ? tab.wt_start : tab.w_start;
  for (int r = 0; r < 2 * n + 1; ++r) {
    V a0 = x[0][0] * 0.0, a1 = a0, a2 = a0;
    for (int k = start[first + r]; k < start[first + r + 1]; ++k) {
      const double w = entry[k].value;
      const int c = entry[k].column - first;
      a0 += w * x[0][c], a1 += w * x[1][c], a2 += w * x[2][c];
    }
    y[0][r] = a0, y[1][r] = a1, y[2][r] = a2;
  }
}

// sum += each lane of v, in lane order.
template <int W, class V>
inline void add_lanes(const V& v, double& sum) {
  if constexpr (std::is_arithmetic_v<V>) {
    sum += v;
  } else {
    for (int i = 0; i < W; ++i) sum += v[i];
  }
}

}  // namespace detail

// The tables, built on first use (thread-safe).
inline const rotation::Tables& m2l_rotation_tables() {
  static const rotation::Tables* tables = [] {
    auto* t = new rotation::Tables;
    detail::build_rotation_tables(*t);
    return t;
  }();
  return *tables;
}

// The angles of translations, in lanes: for each lane t = local centre - multipole centre.
template <class V>
struct RotatedTranslation {
  static constexpr int D = 2 * rotation::kMaxDegree + 1;
  V cp[D], sp[D], ct[D], st[D];  // cos, sin of m phi and of m theta, m = 0..max(p, q)
  V u;                           // 1 / |t|
};

// Sets lane i of `r` from t (T the lanes' scalar): the angles of t, orders up to `top`.
template <class V, class T>
void set_rotated_lane(RotatedTranslation<V>& r, int lane, int top, T tx, T ty, T tz) {
  const T rxy = std::sqrt(tx * tx + ty * ty), rho = std::sqrt(rxy * rxy + tz * tz);
  const T cphi = rxy > T(0) ? tx / rxy : T(1), sphi = rxy > T(0) ? ty / rxy : T(0);
  const T cth = tz / rho, sth = rxy / rho;
  T cm = 1, sm = 0, cn = 1, sn = 0;
  for (int m = 0; m <= top; ++m) {
    if (m > 0) {
      const T c1 = cm * cphi - sm * sphi, c2 = cn * cth - sn * sth;
      sm = sm * cphi + cm * sphi, sn = sn * cth + cn * sth;
      cm = c1, cn = c2;
    }
    detail::set_lane(r.cp[m], lane, cm), detail::set_lane(r.sp[m], lane, sm);
    detail::set_lane(r.ct[m], lane, cn), detail::set_lane(r.st[m], lane, sn);
  }
  detail::set_lane(r.u, lane, T(1) / rho);
}

// M2L by rotation of the translations in the lanes of V: M[e * count + j] the lanes' multipoles
// (order p), and each degree k of the lanes' local expansions (order q) handed to
// add(k, x), x[e][j] the degree's coefficients j of component e (lanes).
template <class V, class Add>
VORTEX_HD void m2l_rotated_lanes(const rotation::Tables& tab, int p, int q,
                                 const RotatedTranslation<V>& r, const V* M, Add&& add) {
  constexpr int D = RotatedTranslation<V>::D;
  const int count = coefficient_count(p);
  // Turned multipoles, Schmidt-normalized and times u^(n+1), degree-major.
  V Mr[3][coefficient_count(kMaxOrder)];
  V un = r.u;
  for (int n = 0; n <= p; ++n, un *= r.u) {
    const int d = 2 * n + 1, o = n * n;
    V x[3][D], y[3][D];
    for (int e = 0; e < 3; ++e)
      for (int j = 0; j < d; ++j) x[e][j] = M[e * count + o + j] * tab.nu[o + j];
    detail::turn_about_z<V, D>(n, r.cp, r.sp, x, -1.0);
    detail::apply_w<V, D>(tab, n, x, y, true);
    detail::turn_about_z<V, D>(n, r.ct, r.st, y, -1.0);
    detail::apply_w<V, D>(tab, n, y, x, false);
    for (int e = 0; e < 3; ++e)
      for (int j = 0; j < d; ++j) Mr[e][o + j] = x[e][j] * un;
  }
  // Along z, then each degree k turned back.
  V uk = r.u * 0.0 + 1.0;
  for (int k = 0; k <= q; ++k, uk *= r.u) {
    V x[3][D], y[3][D];
    for (int l = 0; l <= k; ++l) {
      const double* A =
          tab.axial + rotation::axial_offset(l) + (k - l) * rotation::axial_columns(l);
      for (int e = 0; e < 3; ++e) {
        V c = uk * 0.0, s = c;
        for (int n = l; n <= p; ++n) {
          c += A[n - l] * Mr[e][cos_index(n, l)];
          if (l > 0) s += A[n - l] * Mr[e][sin_index(n, l)];
        }
        x[e][l] = c * uk;
        if (l > 0) x[e][k + l] = s * uk;
      }
    }
    detail::apply_w<V, D>(tab, k, x, y, true);
    detail::turn_about_z<V, D>(k, r.ct, r.st, y, 1.0);
    detail::apply_w<V, D>(tab, k, y, x, false);
    detail::turn_about_z<V, D>(k, r.cp, r.sp, x, 1.0);
    const int o = k * k;
    for (int e = 0; e < 3; ++e)
      for (int j = 0; j < 2 * k + 1; ++j) x[e][j] *= tab.nu[o + j];
    add(k, x);
  }
}

// Adds to L (order q) the M2L of `count` translations by rotation: source(i, t) writes t = local
// centre - multipole centre of translation i and returns its multipoles (order p). The host's
// M2L. With SIMD, W translations go in the lanes of a vector (B bytes of doubles) and their sums
// are added to L lane by lane, in order, each W translations.
template <int B = simd_bytes(), class Source>
void m2l_sum(int p, int q, int count, Source&& source, double* L) {
  detail::check_order(p, 0, "m2l");
  detail::check_order(q, 0, "m2l (local order)", kMaxLocalOrder);
  const rotation::Tables& tab = m2l_rotation_tables();
  const int countM = coefficient_count(p), countL = coefficient_count(q), top = p > q ? p : q;
#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
  using V = simd::Vec<double, B>;
  constexpr int W = simd::Lanes<double, B>::W;
#pragma GCC diagnostic pop
#else
  using V = double;
  constexpr int W = 1;
#endif
  constexpr int D = RotatedTranslation<V>::D;
  thread_local RotatedTranslation<V> r;
  thread_local V M[3 * coefficient_count(kMaxOrder)];
  for (int first = 0; first < count; first += W) {
    for (int i = 0; i < W; ++i) {
      double t[3] = {0, 0, 1};  // an empty lane: no moments
      const double* Mi = first + i < count ? source(first + i, t) : nullptr;
      set_rotated_lane(r, i, top, t[0], t[1], t[2]);
      for (int j = 0; j < 3 * countM; ++j) detail::set_lane(M[j], i, Mi ? Mi[j] : 0.0);
    }
    m2l_rotated_lanes(tab, p, q, r, M, [&](int k, V x[3][D]) {
      for (int e = 0; e < 3; ++e)
        for (int j = 0; j < 2 * k + 1; ++j) {
          double* out = L + e * countL + k * k + j;
          detail::add_lanes<W>(x[e][j], *out);
        }
    });
  }
}

}  // namespace vortex::multipole
