#pragma once
// The cells of the fixed-radius neighbour search (vortex/grid_search.hpp), read on the host and on
// the device: a hash table of the occupied cubic cells, each a run of the points sorted by cell
// (i, j, k), and the walk over the cells that may hold a point within a radius of a query point.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "vortex/kernels/hd.hpp"

namespace vortex {

struct GridCell {
  std::int32_t i, j, k;
  std::int32_t begin, end;  // its points in the sorted arrays; end = -1 marks a free slot
};

// Cell indices lie within 2^30 of the origin (GridSearch refuses points beyond).
constexpr double kGridCellLimit = 1073741824.0;

// A built grid: the table (a power-of-two number of slots) and the points sorted by cell.
struct GridView {
  double cell = 1;
  const GridCell* table = nullptr;
  std::size_t slots = 0;
  const double *x = nullptr, *y = nullptr, *z = nullptr;
  const std::int32_t* index = nullptr;  // caller index of each sorted point
  std::size_t size = 0;
};

VORTEX_HD std::size_t grid_slot(std::int32_t i, std::int32_t j, std::int32_t k) {
  std::uint64_t h = static_cast<std::uint32_t>(i);
  h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint32_t>(j);
  h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint32_t>(k);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return static_cast<std::size_t>(h ^ (h >> 32));
}

VORTEX_HD const GridCell* grid_find(const GridView& g, std::int32_t i, std::int32_t j,
                                    std::int32_t k) {
  const std::size_t mask = g.slots - 1;
  for (std::size_t slot = grid_slot(i, j, k) & mask;; slot = (slot + 1) & mask) {
    const GridCell& c = g.table[slot];
    if (c.end < 0) return nullptr;
    if (c.i == i && c.j == j && c.k == k) return &c;
  }
}

// Calls visit(caller index) for every point with |p - q|^2 <= radius^2, row of cells by row of
// cells (not sorted).
template <class Visit>
VORTEX_HD void grid_query(const GridView& g, double qx, double qy, double qz, double radius,
                          Visit&& visit) {
  if (g.size == 0 || !(radius >= 0)) return;
  const double r2 = radius * radius;
  // The cells that may hold a point within the radius; the margin covers the rounding of q -+ r.
  const double reach = radius + 1e-9 * g.cell;
  const double lo[3] = {floor((qx - reach) / g.cell), floor((qy - reach) / g.cell),
                        floor((qz - reach) / g.cell)};
  const double hi[3] = {floor((qx + reach) / g.cell), floor((qy + reach) / g.cell),
                        floor((qz + reach) / g.cell)};
  // Cells beyond the range of any point hold none. The cells of one row (i, j) and k from lo to
  // hi follow one another in the sorted arrays (sorted by i, j, k): one run of points per row,
  // from the first cell of the row that exists to the last.
  const double limit = kGridCellLimit;
  const double k_lo = fmax(lo[2], -limit), k_hi = fmin(hi[2], limit);
  for (double i = fmax(lo[0], -limit); i <= fmin(hi[0], limit); ++i)
    for (double j = fmax(lo[1], -limit); j <= fmin(hi[1], limit); ++j) {
      const auto ii = static_cast<std::int32_t>(i), jj = static_cast<std::int32_t>(j);
      const GridCell* first = nullptr;
      double k = k_lo;
      for (; k <= k_hi && !first; ++k) first = grid_find(g, ii, jj, static_cast<std::int32_t>(k));
      if (!first) continue;
      const GridCell* last = first;
      for (double m = k_hi; m >= k; --m)
        if (const GridCell* c = grid_find(g, ii, jj, static_cast<std::int32_t>(m))) {
          last = c;
          break;
        }
      for (std::int32_t s = first->begin; s < last->end; ++s) {
        const double dx = g.x[s] - qx, dy = g.y[s] - qy, dz = g.z[s] - qz;
        if (dx * dx + dy * dy + dz * dz <= r2) visit(g.index[s]);
      }
    }
}

}  // namespace vortex
