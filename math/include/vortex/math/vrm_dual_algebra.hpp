#pragma once
// The algebra of the VRM's dual solve (vrm_dual.hpp), written once for host and device: the moment
// rows and weights of the neighbours' offsets, the fallback's steps in fixed arrays (SmallFallback)
// or none (NoFallback), the Hessian through running sums of monomials, and the Gram route to the
// step direction.

#include <cmath>
#include <utility>

#include "vortex/math/hd.hpp"
#include "vortex/math/small_cholesky.hpp"
#include "vortex/math/small_eigen.hpp"

namespace vortex::vrm {

// The step to take from the multipliers lambda, with the moment residual r there.
enum class Direction {
  newton,      // H^+ r (H's pseudo-inverse), with a line search
  null_space,  // r's part that the active rows cannot produce: exact step to a breakpoint
  unknown,     // the cheap factorizations did not apply
};

enum class Outcome {
  solved,       // non-negative fractions found
  no_solution,  // none exist (or the solve stalled above rounding level)
  deferred,     // the fallback declined a step: solve again where it does not
};

// The moment row of an offset d: K = 10 for the redistribution (1, d, the six second-order
// products), K = 4 for the first moments only (1, d).
template <int K>
VORTEX_HD void moment_row(const double* d, double* a) {
  static_assert(K == 10 || K == 4, "moment rows of 4 or 10 entries");
  a[0] = 1;
  a[1] = d[0];
  a[2] = d[1];
  a[3] = d[2];
  if constexpr (K == 10) {
    a[4] = d[0] * d[0];
    a[5] = d[1] * d[1];
    a[6] = d[2] * d[2];
    a[7] = d[0] * d[1];
    a[8] = d[0] * d[2];
    a[9] = d[1] * d[2];
  }
}

// c_q = 1 + |d_q|^2: the weights that prefer near neighbours, and 1 / c_q.
VORTEX_HD double weight(const double* d) {
  return 1.0 + d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
}
VORTEX_HD double inverse_weight(const double* d) {
  return 1.0 / weight(d);
}

// The per-neighbour arrays of one solve (m entries each, the caller's).
struct DualArrays {
  double* inv_c;       // 1 / c_q
  double* f;           // the fractions (written once the solve is done: dual_fractions)
  double* dots;        // scratch: a_q . lambda at lambda
  double* trial_dots;  // scratch: the same at a trial point
};

// The fallback's steps in fixed arrays, on the host and the device: the regularized solve by a
// Cholesky factorization of the shifted matrix (declined where a pivot is not positive), the
// direction by the Jacobi eigendecomposition of H, eigenvalues below 1e-12 of the largest counted
// as zero.
template <int K>
struct SmallFallback {
  VORTEX_HD bool regularized_solve(const double (&h)[K][K], double shift, const double* rhs,
                                   double* x) {
    return vortex::detail::cholesky_solve<K>(
        K, [&](int i, int j) { return h[i][j] + (i == j ? shift : 0.0); }, rhs, x);
  }

  VORTEX_HD Direction eigen_direction(const double (&h)[K][K], const double* r, double null_floor,
                                      double* out) {
    vortex::detail::SymmetricEigen<K> e;
    e.compute(h);
    double largest = 1e-300;
    for (int k = 0; k < K; ++k) largest = fmax(largest, e.value[k]);
    const double cut = 1e-12 * largest;
    double coef[K], null_norm2 = 0;
    for (int k = 0; k < K; ++k) {  // V^T r, and the norm of its part in the null space
      double c = 0;
      for (int i = 0; i < K; ++i) c += e.vector[i][k] * r[i];
      coef[k] = c;
      if (!(e.value[k] > cut)) null_norm2 += c * c;
    }
    const bool null_space = sqrt(null_norm2) > null_floor;
    for (int k = 0; k < K; ++k) {  // the null space's part, or H^+ r
      const bool range = e.value[k] > cut;
      coef[k] = null_space ? (range ? 0.0 : coef[k]) : (range ? coef[k] / e.value[k] : 0.0);
    }
    for (int i = 0; i < K; ++i) {
      double v = 0;
      for (int k = 0; k < K; ++k) v += e.vector[i][k] * coef[k];
      out[i] = v;
    }
    return null_space ? Direction::null_space : Direction::newton;
  }
};

// A fallback that declines every step (the device's first solves).
struct NoFallback {
  template <int K>
  VORTEX_HD bool regularized_solve(const double (&)[K][K], double, const double*, double*) {
    return false;
  }
  template <int K>
  VORTEX_HD Direction eigen_direction(const double (&)[K][K], const double*, double, double*) {
    return Direction::unknown;
  }
};

namespace detail {

// max(0, x), and 0 for NaN, as fmax(0, x); and the larger of a number a and b (a where b is NaN),
// as fmax(a, b). Inline where the per-neighbour loops need them: the host's fmax is a library call.
VORTEX_HD double positive_part(double x) {
  return x > 0 ? x : 0.0;
}
VORTEX_HD double larger(double a, double b) {
  return b > a ? b : a;
}

template <int K>
VORTEX_HD double dot(const double* a, const double* b) {
  double s = 0;
  for (int i = 0; i < K; ++i) s += a[i] * b[i];
  return s;
}

template <int K>
VORTEX_HD double norm(const double* a) {
  return sqrt(dot<K>(a, a));
}

// The power of axis (0: x, 1: y, 2: z) in moment_row's entry i (1, x, y, z, x^2, y^2, z^2, xy,
// xz, yz).
constexpr int row_power(int i, int axis) {
  if (i == 0) return 0;
  if (i <= 3) return i - 1 == axis ? 1 : 0;
  if (i <= 6) return i - 4 == axis ? 2 : 0;
  return i - 7 == 2 - axis ? 0 : 1;  // xy lacks z, xz lacks y, yz lacks x
}

// The place of the monomial x^a y^b z^c among those of degree at most 4: by degree n, then by
// falling a, then by rising c.
constexpr int monomial_index(int a, int b, int c) {
  return (a + b + c) * (a + b + c + 1) * (a + b + c + 2) / 6 + (b + c) * (b + c + 1) / 2 + c;
}

// The power of axis in the monomial at place k.
constexpr int monomial_power(int k, int axis) {
  for (int n = 0, at = 0; n <= 4; ++n)
    for (int a = n; a >= 0; --a)
      for (int c = 0; c <= n - a; ++c, ++at)
        if (at == k) return axis == 0 ? a : axis == 1 ? n - a - c : c;
  return -1;
}

template <int k, int axis>
constexpr int kMonomialPower = monomial_power(k, axis);
template <int i, int j>
constexpr int kEntryMonomial = monomial_index(row_power(i, 0) + row_power(j, 0),
                                              row_power(i, 1) + row_power(j, 1),
                                              row_power(i, 2) + row_power(j, 2));

// The Hessian sum_q w_q a_q a_q^T through the weighted sums of the monomials x^a y^b z^c of the
// offsets: every entry a_qi a_qj is one of them (degree at most 2 for K = 4, 4 for K = 10), so
// 10 or 35 running sums replace 10 or 55 entries, few enough for a device thread's registers
// (the entries themselves lived in local memory, read and written once per neighbour). Every
// index is a constant (expanded from integer sequences), so that the sums stay in registers.
template <int K>
struct HessianSums {
  static constexpr int kDegree = K == 10 ? 4 : 2;
  static constexpr int kCount = (kDegree + 1) * (kDegree + 2) * (kDegree + 3) / 6;
  double sum[kCount] = {};

  VORTEX_HD void add(const double* d, double w) {
    double px[kDegree + 1], py[kDegree + 1], pz[kDegree + 1];
    px[0] = py[0] = pz[0] = 1;
    VORTEX_UNROLL
    for (int e = 1; e <= kDegree; ++e) {
      px[e] = px[e - 1] * d[0];
      py[e] = py[e - 1] * d[1];
      pz[e] = pz[e - 1] * d[2];
    }
    add_each(w, px, py, pz, std::make_integer_sequence<int, kCount>{});
  }

  // The lower triangle of the Hessian (the factorizations read no other).
  VORTEX_HD void lower(double (&h)[K][K]) const {
    set_each(h, std::make_integer_sequence<int, K * K>{});
  }

 private:
  template <int... k>
  VORTEX_HD void add_each(double w, const double* px, const double* py, const double* pz,
                          std::integer_sequence<int, k...>) {
    ((sum[k] += w * px[kMonomialPower<k, 0>] * py[kMonomialPower<k, 1>] * pz[kMonomialPower<k, 2>]),
     ...);
  }
  template <int ij>
  VORTEX_HD void set_entry(double (&h)[K][K]) const {
    constexpr int i = ij / K, j = ij % K;
    if constexpr (i >= j) h[i][j] = sum[kEntryMonomial<i, j>];
  }
  template <int... ij>
  VORTEX_HD void set_each(double (&h)[K][K], std::integer_sequence<int, ij...>) const {
    (set_entry<ij>(h), ...);
  }
};

// The weights 1 / c_q of m neighbours at offsets d.
VORTEX_HD void set_inverse_weights(int m, const double* d, double* inv_c) {
  for (int q = 0; q < m; ++q) inv_c[q] = inverse_weight(d + 3 * q);
}

// Where H's Cholesky factorization failed its conditioning test (dual_iterate tries it first:
// where it passes, all of H's eigenvalues lie above the eigen path's cut, 1e-12 of the largest,
// and H^+ = H^-1) and fewer than K rows s_q = a_q / sqrt(c_q) are active: by a factorization of
// their Gram matrix G = S^T S (k x k). range(H) = range(S), so r's part outside it is
// r - S G^-1 S^T r and H^+ r = S G^-2 S^T r; both are the eigen path's results where G is well
// conditioned, since H's non-zero eigenvalues are G's.
template <int K>
VORTEX_HD Direction gram_direction(vortex::detail::SmallCholesky<K>& cholesky, const double* r,
                                   const double* d, const double* inv_c, const int* active, int k,
                                   double null_floor, double* out) {
  if (k >= K) return Direction::unknown;
  if (k == 0) {  // nothing active: all of r lies outside the range
    for (int i = 0; i < K; ++i) out[i] = r[i];
    if (norm<K>(out) > null_floor) return Direction::null_space;
    for (int i = 0; i < K; ++i) out[i] = 0;
    return Direction::newton;
  }
  double s[K][K];
  for (int i = 0; i < k; ++i) {
    moment_row<K>(d + 3 * active[i], s[i]);
    const double w = sqrt(inv_c[active[i]]);
    for (int c = 0; c < K; ++c) s[i][c] *= w;
  }
  if (!cholesky.factor(k, [&](int i, int j) { return dot<K>(s[i], s[j]); }))
    return Direction::unknown;
  double z[K];  // G^-1 S^T r
  for (int i = 0; i < k; ++i) z[i] = dot<K>(s[i], r);
  cholesky.solve(z, z);
  for (int c = 0; c < K; ++c) {
    double range = 0;
    for (int i = 0; i < k; ++i) range += z[i] * s[i][c];
    out[c] = r[c] - range;
  }
  if (norm<K>(out) > null_floor) return Direction::null_space;
  cholesky.solve(z, z);
  for (int c = 0; c < K; ++c) {
    double v = 0;
    for (int i = 0; i < k; ++i) v += z[i] * s[i][c];
    out[c] = v;
  }
  return Direction::newton;
}

}  // namespace detail

}  // namespace vortex::vrm
