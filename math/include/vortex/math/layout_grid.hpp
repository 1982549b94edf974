#pragma once
// The coarse grid of the sources' layout statistic (vortex/tolerance.hpp, layout_of): cubic cells
// over the bounding box, about kCellCount sources a cell, at most kMaxCells a side. Shared by the
// host's count and the device's, so both give the same contrast for the same set.

#include <cmath>
#include <cstddef>

#include "vortex/math/hd.hpp"

namespace vortex::layout_grid {

constexpr double kCellCount = 64;
constexpr int kMaxCells = 128;

// Cells a side for n sources.
inline int cells_per_side(std::size_t n) {
  const long k = std::lround(std::cbrt(static_cast<double>(n) / kCellCount));
  return static_cast<int>(k < 1 ? 1 : (k > kMaxCells ? kMaxCells : k));
}

// Cells per unit length: k over the longest side of the box.
inline double cell_scale(int k, const double lo[3], const double hi[3]) {
  double side = 0;
  for (int a = 0; a < 3; ++a) side = fmax(side, hi[a] - lo[a]);
  return side > 0 && std::isfinite(side) ? k / side : 0.0;
}

// The cell of a point, x-major.
VORTEX_HD std::size_t cell_of(double x, double y, double z, const double lo[3], double scale,
                              int k) {
  const double p[3] = {x, y, z};
  std::size_t c = 0;
  for (int a = 0; a < 3; ++a) {
    int j = static_cast<int>((p[a] - lo[a]) * scale);
    j = j < 0 ? 0 : (j > k - 1 ? k - 1 : j);
    c = c * static_cast<std::size_t>(k) + static_cast<std::size_t>(j);
  }
  return c;
}

// The density contrast from the occupied cells and the sum of their squared counts: K sum n_c^2 /
// N^2 - K / N over K occupied cells (the last term removes a uniform random set's counting
// noise), at least 1.
inline double contrast(double occupied, double squares, double n) {
  const double d = occupied * squares / (n * n) - occupied / n;
  return d > 1 ? d : 1.0;
}

}  // namespace vortex::layout_grid
