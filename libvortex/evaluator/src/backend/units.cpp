#include "backend/units.hpp"

#include "tree/bounding_box.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace vortex::detail {

namespace {

// The exponent e with 2^(e-1) <= v < 2^e; 0 for v = 0.
int exponent_of(double v) {
  int e = 0;
  std::frexp(v, &e);
  return e;
}

}  // namespace

double Units::length_factor() const {
  return std::ldexp(1.0, -length);
}

double Units::strength_factor() const {
  return std::ldexp(1.0, -strength);
}

void Units::factors(int order, double& f1, double& f2) const {
  const int k = strength - (2 + order) * length;
  f1 = std::ldexp(1.0, k / 2);
  f2 = std::ldexp(1.0, k - k / 2);
}

Units units_of(SourcesView s) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
  if (n == 0) return {};
  const Box b = bounding_box(s.x, s.y, s.z, s.size());
  double strength = 0, sigma = 0;
#pragma omp parallel for reduction(max : strength, sigma)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    strength = std::max({strength, std::abs(s.gx[i]), std::abs(s.gy[i]), std::abs(s.gz[i])});
    sigma = std::max(sigma, s.sigma[i]);
  }
  // Half-widths: halved before the difference, which cannot overflow then.
  double width = 0;
  for (int k = 0; k < 3; ++k) width = std::max(width, 0.5 * b.hi[k] - 0.5 * b.lo[k]);
  return units_from(width, strength, sigma);
}

Units units_from(double half_width, double max_strength, double max_sigma) {
  Units u;
  u.length = exponent_of(half_width > 0 ? half_width : max_sigma);
  u.strength = exponent_of(max_strength);
  return u;
}

}  // namespace vortex::detail
