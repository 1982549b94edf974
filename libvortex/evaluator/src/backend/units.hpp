#pragma once
// Internal units: the treecode sums a copy of the problem scaled so that its lengths and strengths
// are of order 1, whatever their absolute size. The field is scale-covariant (u ~ Gamma / L^2,
// grad u ~ Gamma / L^3), so the results scale back exactly. Both scales are powers of two: every
// scaling is exact, and the sums are those of the unscaled problem, to the bit, wherever the
// unscaled arithmetic stayed in range.

#include "vortex/particles.hpp"

namespace vortex::detail {

struct Units {
  int length = 0;    // internal lengths (positions, sigma) are the caller's times 2^-length
  int strength = 0;  // internal strengths are the caller's times 2^-strength

  double length_factor() const;    // 2^-length
  double strength_factor() const;  // 2^-strength
  // Caller's value of an internal velocity (order 0) or gradient (order 1) component: times
  // 2^(strength - (2 + order) length), as two factors f1 f2 so that neither overflows.
  void factors(int order, double& f1, double& f2) const;
};

// The units of a set of sources: the largest half-width of their bounding box (the largest sigma
// when they all coincide) and the largest strength component, each rounded to a power of two.
Units units_of(SourcesView sources);
// The same from the sources' largest half-width, strength component magnitude and sigma.
Units units_from(double half_width, double max_strength, double max_sigma);

}  // namespace vortex::detail
