#pragma once
// Gradient expansion of a box (host, for the CPU far field): the velocity and its gradient as
// plain sums over the irregular harmonics of degrees 1..p+2,
//
//   u_a(x) = sum_k G_{k,a} I_k(x - c),   du_a/dx_b(x) = sum_k G_{k,3+3a+b} I_k(x - c),
//
// the derivatives of the velocity expansion taken once per box on its coefficients (the
// transposed ladder relations, ladder.hpp) instead of once per target on the harmonics. M2P then
// reads each harmonic once and multiplies it by its coefficients. Degree 1 has velocity terms
// only, degree p+2 gradient terms only. u = curl psi is divergence-free, so the gradient is
// traceless and du_z/dz = -(du_x/dx + du_y/dy) is not stored: slot k (harmonic k, k >= 1) holds 11
// reals at G[12 (k - 1) + 0..10] (u, then du_a/dx_b for 3a+b = 0..7) and a zero.

#include <cmath>

#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/ladder.hpp"
#include "vortex/multipole/solid_harmonics.hpp"

namespace vortex::multipole {

// Reals per harmonic, and per box at order p (harmonics 1 .. (p+3)^2 - 1).
constexpr int gradient_slot_width() {
  return 12;
}
constexpr int gradient_expansion_size(int p) {
  return gradient_slot_width() * (coefficient_count(p + 2) - 1);
}

// The gradient expansion G[gradient_expansion_size(p)] (overwritten) of the velocity expansion V
// (velocity_expansion_size(p), expansion.hpp) of order p.
template <class T, class S>
void gradient_expansion(int p, const S* V, T* G) {
  detail::check_order(p, 1, "gradient_expansion");
  constexpr int K = gradient_slot_width();
  const int count1 = coefficient_count(p + 1), count2 = coefficient_count(p + 2);
  double A[coefficient_count(kMaxOrder + 1)];
  double D[3][coefficient_count(kMaxOrder + 2)];
  for (int k = 1; k < count2; ++k)
    for (int c = 0; c < K; ++c) G[K * (k - 1) + c] = T(0);
  for (int a = 0; a < 3; ++a) {
    A[0] = 0;
    for (int k = 1; k < count1; ++k) {
      A[k] = double(V[4 * (k - 1) + a]);
      G[K * (k - 1) + a] = T(A[k]);
    }
    // d u_a / d x_b = sum_k D[b][k] I_k over degrees 0..p+2 (degree 0 and 1 terms vanish).
    irregular_coefficient_derivatives(p + 1, A, D[0], D[1], D[2]);
    for (int b = 0; b < 3; ++b) {
      const int c = 3 + 3 * a + b;
      if (c > 10) continue;  // du_z/dz, from the trace
      for (int k = 1; k < count2; ++k) G[K * (k - 1) + c] = T(D[b][k]);
    }
  }
}

// The gradient terms of a gradient expansion of order p made from a velocity expansion normalized
// by the scale 2^e (expansion_scale.hpp) times 2^-e, in place: the derivatives in d instead of
// d / 2^e.
template <class T>
void scale_gradient_terms(int p, int e, T* G) {
  constexpr int K = gradient_slot_width();
  const int count2 = coefficient_count(p + 2);
  for (int k = 1; k < count2; ++k)
    for (int c = 3; c < 11; ++c) G[K * (k - 1) + c] = std::ldexp(G[K * (k - 1) + c], -e);
}

// Velocity r[0..2] and gradient r[3 + 3a + b] at d = target - center from the gradient expansion
// G of order P, one target (reference for the SIMD lanes of m2p_batch.hpp).
template <int P, class T, class R>
void gradient_expansion_at(const T* G, T dx, T dy, T dz, R r[12]) {
  constexpr int K = gradient_slot_width();
  constexpr int count2 = coefficient_count(P + 2);
  T H[count2];
  irregular_harmonics(P + 2, dx, dy, dz, H);
  T s[11] = {};
  for (int k = 1; k < count2; ++k)
    for (int c = 0; c < 11; ++c) s[c] += G[K * (k - 1) + c] * H[k];
  for (int c = 0; c < 11; ++c) r[c] = R(s[c]);
  r[11] = -(R(s[3]) + R(s[7]));
}

}  // namespace vortex::multipole
