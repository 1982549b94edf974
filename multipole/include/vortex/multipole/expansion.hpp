#pragma once
// Multipole expansions of the vector potential of a cluster of vortex particles:
// P2M, M2M and the per-box velocity expansion consumed by M2P (evaluation.hpp).
//
// For a box centered at c holding particles x_j with strengths G_j, and y_j = x_j - c,
//
//   psi_e(x) = sum_j G_{j,e} / |x - x_j| = sum_{n=0}^p sum_{m=-n}^n conj(C_{e,n}^m) I_n^m(x - c),
//   C_{e,n}^m = sum_j G_{j,e} R_n^m(y_j)            (no 1/(4 pi); harmonics: solid_harmonics.hpp)
//
// Storage M[e * coefficient_count(p) + k], e = 0, 1, 2 for x, y, z, k degree-major: the cos part
// of C at cos_index(n, m) and the sin part at sin_index(n, m), i.e. M = sum_j G_j (real R_k(y_j)).
// Hence the monopole M[e * count + 0] is the total strength sum_j G_{j,e}, and with the weights
// w_0 = 1, w_{m>0} = 2,  psi_e(x) = sum_k w_m(k) M_{e,k} I_k(x - c)  (I_k real, same layout).
//
// Truncation error for a box of radius a (all |y_j| <= a) and a target at distance R > a:
//   |psi - psi_p| <= sum_j |G_j| / (R - a) * (a/R)^(p+1),
// and each derivative costs about one more power of R/(R-a), so velocity and gradient converge
// like (a/R)^(p+1) / (1 - a/R) relative to the field of the cluster.

#include <stdexcept>
#include <string>
#include <vector>

#include "vortex/math/hd.hpp"
#include "vortex/multipole/ladder.hpp"
#include "vortex/multipole/solid_harmonics.hpp"

namespace vortex::multipole {

// Reals of the three expansions of one box.
VORTEX_HD constexpr int multipole_size(int p) {
  return 3 * coefficient_count(p);
}

// Velocity expansion (input of M2P): u_a(x) = sum_k V_{a,k} I_k(x - c) over the harmonics of
// degrees 1..p+1, with the weights w_m and the curl already applied. Slot j = k - 1 holds harmonic
// k (degree-major, solid_harmonics.hpp); its three components are at V[4 j + a] (a = 0, 1, 2) and a
// zero at V[4 j + 3], so that one box's expansion is an array of 4-vectors (SIMD lanes on the CPU,
// float4 on the GPU).
VORTEX_HD constexpr int velocity_slot_count(int p) {
  return (p + 1) * (p + 3);
}
VORTEX_HD constexpr int velocity_expansion_size(int p) {
  return 4 * velocity_slot_count(p);
}

namespace detail {
inline void check_order(int p, int lowest, const char* what, int highest = kMaxOrder) {
  if (p < lowest || p > highest)
    throw std::invalid_argument(std::string(what) + ": expansion order " + std::to_string(p) +
                                " outside [" + std::to_string(lowest) + ", " +
                                std::to_string(highest) + "]");
}

// Complex value (re, im) of X_n^m for any sign of m, from a degree-major array (zero if |m| > n).
template <class T>
struct Complex {
  T re, im;
};
template <class T>
VORTEX_HD Complex<T> signed_order(const T* X, int n, int m) {
  const int am = m < 0 ? -m : m;
  if (am > n) return {T(0), T(0)};
  const T re = X[cos_index(n, am)];
  const T im = am > 0 ? X[sin_index(n, am)] : T(0);
  if (m >= 0) return {re, im};
  const T sign = (am & 1) ? T(-1) : T(1);
  return {sign * re, -sign * im};
}
}  // namespace detail

namespace detail {
// Coefficient (n, m) of expansion Me (cos part, or sin part if `sin`) with the weight w_m of
// psi = sum_k w_m M_k I_k; zero outside the expansion's terms.
template <class T>
VORTEX_HD T weighted_term(const T* Me, int n, int m, bool sin) {
  if (m < (sin ? 1 : 0) || m > n) return T(0);
  const T v = Me[sin ? sin_index(n, m) : cos_index(n, m)];
  return m == 0 ? v : T(2) * v;
}

template <class T>
struct Derivatives {
  T x, y, z;
};

// Coefficient of the irregular harmonic (q, m) (its cos part, or sin part if `sin`) in the
// gradient of psi_e = sum_k w_m Me_k I_k: ladder.hpp's coefficient_derivatives (s = +1) gathered
// for one output, with its at most two terms added in the order that routine scatters them.
template <class T>
VORTEX_HD Derivatives<T> irregular_derivative_terms(const T* Me, int q, int m, bool sin) {
  const int n = q - 1;
  const T h = T(0.5);
  auto c = [&](int j) { return weighted_term(Me, n, j, false); };
  auto s = [&](int j) { return weighted_term(Me, n, j, true); };
  Derivatives<T> d;
  if (!sin) {
    d.z = -c(m);
    if (m == 0) {
      d.x = h * c(1);
      d.y = h * s(1);
    } else {
      // The order-0 term enters with weight 1 (its ladder relation has no 1/2).
      d.x = (m == 1 ? -c(0) : -h * c(m - 1)) + h * c(m + 1);
      d.y = h * s(m - 1) + h * s(m + 1);
    }
  } else {
    d.z = -s(m);
    d.x = -h * s(m - 1) + h * s(m + 1);
    d.y = (m == 1 ? -c(0) : -h * c(m - 1)) - h * c(m + 1);
  }
  return d;
}
}  // namespace detail

// Slot j of the velocity expansion of M (velocity_expansion_size): harmonic k = j + 1, the curl
// u_a = eps_abc d_b psi_c of the three expansions, and a zero in the fourth lane.
template <class T>
VORTEX_HD void velocity_slot(int p, const T* M, int j, T* slot) {
  const int count = coefficient_count(p);
  const int k = j + 1;
  int q = 1;
  while ((q + 1) * (q + 1) <= k) ++q;
  const int r = k - q * q;
  const bool sin = r > q;
  const int m = sin ? r - q : r;
  // The gradients of psi_x, psi_y and psi_z at this harmonic.
  const detail::Derivatives<T> px = detail::irregular_derivative_terms(M, q, m, sin);
  const detail::Derivatives<T> py = detail::irregular_derivative_terms(M + count, q, m, sin);
  const detail::Derivatives<T> pz = detail::irregular_derivative_terms(M + 2 * count, q, m, sin);
  slot[0] = pz.y - py.z;
  slot[1] = px.z - pz.x;
  slot[2] = py.x - px.y;
  slot[3] = T(0);
}

// The expansion stages without the order check, callable from kernels: scratch arrays are sized
// for orders up to MaxP, so a kernel compiled for one order keeps them small. Callers check the
// order once (p <= MaxP).
namespace unchecked {

// Adds a particle of strength (gx, gy, gz) at offset (dx, dy, dz) = x_particle - center to the
// three expansions M[3 * (p+1)^2].
template <int MaxP, class T>
VORTEX_HD void p2m(int p, T dx, T dy, T dz, T gx, T gy, T gz, T* M) {
  T R[coefficient_count(MaxP)];
  regular_harmonics(p, dx, dy, dz, R);
  const int count = coefficient_count(p);
  T* Mx = M;
  T* My = M + count;
  T* Mz = M + 2 * count;
  for (int k = 0; k < count; ++k) {
    Mx[k] += gx * R[k];
    My[k] += gy * R[k];
    Mz[k] += gz * R[k];
  }
}

// Coefficient (n, m) of an expansion C translated by the regular harmonics R of the offset, by the
// addition theorem C_n^m(parent) = sum_{k,l} R_k^l(d) C_{n-k}^{m-l}(child): its cos and sin parts.
// The orders l run in three stretches whose signs are known (R's order negative; both orders
// non-negative; C's order negative), so that the loops read the real arrays without the branches
// of detail::signed_order: X_n^{-m} = (-1)^m conj(X_n^m).
template <class T>
VORTEX_HD detail::Complex<T> m2m_term(int n, int m, const T* R, const T* C) {
  T re = T(0), im = T(0);
  for (int k = 0; k <= n; ++k) {
    const int j = n - k;  // C's degree; C_j^{m-l} vanishes unless |m - l| <= j
    const int l_lo = m - j > -k ? m - j : -k;
    const int l_hi = m + j < k ? m + j : k;
    int l = l_lo;
    for (; l < 0 && l <= l_hi; ++l) {  // R_k^l with l < 0; C_j^{m-l} with m - l >= 1
      const T s = (l & 1) ? T(-1) : T(1);
      const T ar = s * R[cos_index(k, -l)], ai = -s * R[sin_index(k, -l)];
      const T br = C[cos_index(j, m - l)], bi = C[sin_index(j, m - l)];
      re += ar * br - ai * bi;
      im += ar * bi + ai * br;
    }
    for (; l <= m && l <= l_hi; ++l) {  // both orders >= 0
      const T ar = R[cos_index(k, l)], ai = l > 0 ? R[sin_index(k, l)] : T(0);
      const T br = C[cos_index(j, m - l)], bi = m - l > 0 ? C[sin_index(j, m - l)] : T(0);
      re += ar * br - ai * bi;
      im += ar * bi + ai * br;
    }
    for (; l <= l_hi; ++l) {  // R_k^l with l >= 1; C_j^{m-l} with m - l < 0
      const T s = ((l - m) & 1) ? T(-1) : T(1);
      const T ar = R[cos_index(k, l)], ai = R[sin_index(k, l)];
      const T br = s * C[cos_index(j, l - m)], bi = -s * C[sin_index(j, l - m)];
      re += ar * br - ai * bi;
      im += ar * bi + ai * br;
    }
  }
  return {re, im};
}

// Adds the child's three expansions, translated to the parent's center, to the parent's:
// (dx, dy, dz) = child center - parent center. Exact for the truncated coefficients.
template <int MaxP, class T>
VORTEX_HD void m2m(int p, T dx, T dy, T dz, const T* child, T* parent) {
  T R[coefficient_count(MaxP)];
  regular_harmonics(p, dx, dy, dz, R);
  const int count = coefficient_count(p);
  for (int e = 0; e < 3; ++e) {
    const T* C = child + e * count;
    T* out = parent + e * count;
    for (int n = 0; n <= p; ++n) {
      for (int m = 0; m <= n; ++m) {
        const detail::Complex<T> t = m2m_term(n, m, R, C);
        out[cos_index(n, m)] += t.re;
        if (m > 0) out[sin_index(n, m)] += t.im;
      }
    }
  }
}

// Velocity expansion V[velocity_expansion_size(p)] (overwritten) of the three expansions M, so that
// u = curl psi = sum_k V_k I_k: u_a = eps_abc d_b psi_c, the derivatives taken on the coefficients
// by the transposed ladder relations (ladder.hpp). Each slot gathers its few terms
// (velocity_slot), so that a kernel may give every slot of every box its own thread.
template <class T>
VORTEX_HD void m2v(int p, const T* M, T* V) {
  for (int j = 0; j < velocity_slot_count(p); ++j) velocity_slot(p, M, j, V + 4 * j);
}

}  // namespace unchecked

// The same with the order checked (std::invalid_argument outside 0..kMaxOrder), for host callers.
template <class T>
void p2m(int p, T dx, T dy, T dz, T gx, T gy, T gz, T* M) {
  detail::check_order(p, 0, "p2m");
  unchecked::p2m<kMaxOrder>(p, dx, dy, dz, gx, gy, gz, M);
}
template <class T>
void m2m(int p, T dx, T dy, T dz, const T* child, T* parent) {
  detail::check_order(p, 0, "m2m");
  unchecked::m2m<kMaxOrder>(p, dx, dy, dz, child, parent);
}
template <class T>
void m2v(int p, const T* M, T* V) {
  detail::check_order(p, 0, "m2v");
  unchecked::m2v(p, M, V);
}

}  // namespace vortex::multipole
