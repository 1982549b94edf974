#pragma once
// The coarse grid of the sources' layout statistic (vortex/tolerance.hpp, layout_of): cubic cells
// over the bounding box, about kCellCount sources a cell, at most kMaxCells a side. Shared by the
// host's count and the device's, so both give the same contrast and dimension for the same set.

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

// The coarse grid of the dimension (below): the cells merged two by two along each axis, cells
// kc = (k + 1) / 2 a side (the last ones of an odd k half as wide).
VORTEX_HD int coarse_cells_per_side(int k) {
  return (k + 1) / 2;
}
// The sources in coarse cell `c` (x-major on kc a side): the sum of its fine cells' counts (x-major
// on k a side; up to 8 of them).
template <class Count>
VORTEX_HD double coarse_count(const Count* count, int k, std::size_t c) {
  const int kc = (k + 1) / 2;
  const int cz = static_cast<int>(c % kc), cy = static_cast<int>((c / kc) % kc),
            cx = static_cast<int>(c / (static_cast<std::size_t>(kc) * kc));
  double m = 0;
  for (int x = 2 * cx; x < 2 * cx + 2 && x < k; ++x)
    for (int y = 2 * cy; y < 2 * cy + 2 && y < k; ++y)
      for (int z = 2 * cz; z < 2 * cz + 2 && z < k; ++z)
        m += static_cast<double>(count[(static_cast<std::size_t>(x) * k + y) * k + z]);
  return m;
}

// The correlation dimension of the set between the two grids: pairs of sources that share a
// cell, P = sum n (n - 1), grow from the fine cells to the coarse ones as (k / kc)^d: 3 for a
// volume, 2 for a sheet, 1 for a filament (a line of particles, a thin ring). 3 where the grids
// cannot tell (one cell a side, no fine cell holding two sources), and within [0, 3].
inline double dimension(double fine_pairs, double coarse_pairs, int k) {
  const int kc = coarse_cells_per_side(k);
  if (k < 2 || !(fine_pairs > 0) || !(coarse_pairs >= fine_pairs)) return 3.0;
  const double d = std::log(coarse_pairs / fine_pairs) / std::log(static_cast<double>(k) / kc);
  return d < 3 ? d : 3.0;
}

// Both statistics from the fine grid's counts (k^3 of them, any count type), as the host and the
// ranks' sum add them up (the device adds the same sums in its kernels).
template <class Count>
inline void count_statistics(const Count* count, int k, double n, double& contrast_out,
                             double& dimension_out) {
  const std::size_t cells = static_cast<std::size_t>(k) * k * k;
  const std::size_t kc = static_cast<std::size_t>(coarse_cells_per_side(k));
  double occupied = 0, squares = 0, coarse_pairs = 0;
  for (std::size_t c = 0; c < cells; ++c) {
    const double m = static_cast<double>(count[c]);
    occupied += m > 0 ? 1 : 0;
    squares += m * m;
  }
  for (std::size_t c = 0; c < kc * kc * kc; ++c) {
    const double m = coarse_count(count, k, c);
    coarse_pairs += m * (m - 1);
  }
  contrast_out = contrast(occupied, squares, n);
  dimension_out = dimension(squares - n, coarse_pairs, k);
}

}  // namespace vortex::layout_grid
