#pragma once
// Velocity expansions normalized by their box's scale, so that no term over- or underflows.
//
// A box of radius a has multipole coefficients of degree n about a^n times its strength, and M2P
// multiplies them by irregular harmonics of about |d|^-(n+1): at order 16 in float, a box of
// radius 1e-3 already underflows the one and overflows the other (0 * inf = NaN), although
// their product is of order 1. With the box's scale b, a power of two with a <= b < 2a, the
// homogeneity I_q(d) = b^-(q+1) I_q(d / b) gives
//
//   u(x) = sum_k V_k I_k(d) = sum_k (V_k b^-(q+1)) I_k(d / b),   q the degree of harmonic k,
//
// so the stored slot of degree q is V_k b^-(q+1) (of the size of the box's strength / b^2 for every
// degree) and M2P evaluates the harmonics at d / b, at least 1 / (2 theta) long for a box that
// passes the acceptance rule (node radii have a floor: kRadiusFloor, tree_node.hpp). A gradient
// taken on the harmonics at d / b (the GPU's M2P) is 1/b times the gradient in d. Powers of two
// make every scaling exact: the sums are those of the unnormalized expansions, to the bit, wherever
// those stayed in range.

#include <cmath>

#include "vortex/math/hd.hpp"
#include "vortex/multipole/expansion.hpp"

namespace vortex::multipole {

// The exponent e of the box's scale b = 2^e: the smallest with radius <= 2^e (0 for radius 0).
VORTEX_HD int scale_exponent(double radius) {
  int e = 0;
  const double m = frexp(radius, &e);  // radius = m 2^e, 0.5 <= m < 1
  (void)m;
  return e;
}

// 1 / b for the scale exponent e.
VORTEX_HD double inverse_scale(int e) {
  return ldexp(1.0, -e);
}

// Degree of the harmonic paired with slot j of a velocity expansion (slot j holds harmonic j + 1).
VORTEX_HD int velocity_slot_degree(int j) {
  int q = 1;
  while ((q + 1) * (q + 1) <= j + 1) ++q;
  return q;
}

// Slot j's 4 values of an expansion of a box of scale 2^e, normalized in place: times 2^-e(q+1).
template <class T>
VORTEX_HD void normalize_velocity_slot(int j, int e, T* slot) {
  const int shift = -e * (velocity_slot_degree(j) + 1);
  for (int a = 0; a < 4; ++a) slot[a] = ldexp(slot[a], shift);
}

// Every slot of a velocity expansion of order p (velocity_expansion_size(p) values).
template <class T>
VORTEX_HD void normalize_velocity_expansion(int p, int e, T* V) {
  for (int j = 0; j < velocity_slot_count(p); ++j) normalize_velocity_slot(j, e, V + 4 * j);
}

}  // namespace vortex::multipole
