#pragma once
// The axis-aligned bounding box of points given as three coordinate arrays, in one parallel pass.

#include <algorithm>
#include <cstddef>

namespace vortex::detail {

struct Box {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
};

// The box of n >= 1 points.
inline Box bounding_box(const double* x, const double* y, const double* z, std::size_t n) {
  double lo[3] = {x[0], y[0], z[0]}, hi[3] = {lo[0], lo[1], lo[2]};
  const std::ptrdiff_t count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for reduction(min : lo[:3]) reduction(max : hi[:3])
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    lo[0] = std::min(lo[0], x[i]), hi[0] = std::max(hi[0], x[i]);
    lo[1] = std::min(lo[1], y[i]), hi[1] = std::max(hi[1], y[i]);
    lo[2] = std::min(lo[2], z[i]), hi[2] = std::max(hi[2], z[i]);
  }
  Box b;
  for (int k = 0; k < 3; ++k) b.lo[k] = lo[k], b.hi[k] = hi[k];
  return b;
}

}  // namespace vortex::detail
