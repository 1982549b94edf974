#include "backend/units.hpp"

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

void Units::scale_back(double* values, std::size_t n, int order) const {
  const int k = strength - (2 + order) * length;
  const int half = k / 2;
  const double f1 = std::ldexp(1.0, half), f2 = std::ldexp(1.0, k - half);
  if (k == 0) return;
  const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < count; ++i) values[i] = values[i] * f1 * f2;
}

Units units_of(SourcesView s) {
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
  if (n == 0) return {};
  double lo[3] = {s.x[0], s.y[0], s.z[0]}, hi[3] = {lo[0], lo[1], lo[2]};
  double strength = 0, sigma = 0;
#pragma omp parallel for reduction(min : lo[:3]) reduction(max : hi[:3], strength, sigma)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    lo[0] = std::min(lo[0], s.x[i]), hi[0] = std::max(hi[0], s.x[i]);
    lo[1] = std::min(lo[1], s.y[i]), hi[1] = std::max(hi[1], s.y[i]);
    lo[2] = std::min(lo[2], s.z[i]), hi[2] = std::max(hi[2], s.z[i]);
    strength = std::max({strength, std::abs(s.gx[i]), std::abs(s.gy[i]), std::abs(s.gz[i])});
    sigma = std::max(sigma, s.sigma[i]);
  }
  // Half-widths: halved before the difference, which cannot overflow then.
  double width = 0;
  for (int k = 0; k < 3; ++k) width = std::max(width, 0.5 * hi[k] - 0.5 * lo[k]);
  return units_from(width, strength, sigma);
}

Units units_from(double half_width, double max_strength, double max_sigma) {
  Units u;
  u.length = exponent_of(half_width > 0 ? half_width : max_sigma);
  u.strength = exponent_of(max_strength);
  return u;
}

}  // namespace vortex::detail
