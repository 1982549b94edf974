#pragma once
// The cells of the fixed-radius neighbour search (vortex/grid_search.hpp), read on the host and on
// the device: the points sorted by cubic cell (i, j, k), the occupied cells in that order, a hash
// table of the rows (i, j) of cells (one lookup a row: a query within a cell's width reads 9), and
// the walk over the cells that may hold a point within a radius of a query point.

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "vortex/math/hd.hpp"

namespace vortex {

// An occupied cell of a row: its k and the first of its points in the sorted arrays. Its points end
// where the next cell's begin (the cells of all rows follow one another in the sorted order, and
// a last entry holds the point count).
struct GridCell {
  std::int32_t k, begin;
};

// A row of cells, the occupied cells (i, j, *) in ascending k: cells[first, end) of the view's
// array; end = -1 marks a free slot of the table.
struct GridRow {
  std::int32_t i, j;
  std::int32_t first, end;
};

// Cell indices lie within 2^30 of the origin (GridSearch refuses points beyond).
constexpr double kGridCellLimit = 1073741824.0;

// A built grid: the rows' hash table (a power-of-two number of slots), the cells, and the points
// sorted by cell.
struct GridView {
  double cell = 1;
  const GridRow* rows = nullptr;
  std::size_t slots = 0;
  const GridCell* cells = nullptr;  // cell_count + 1 entries
  std::size_t cell_count = 0;
  const double *x = nullptr, *y = nullptr, *z = nullptr;
  const std::int32_t* index = nullptr;  // caller index of each sorted point
  std::size_t size = 0;
};

VORTEX_HD std::size_t grid_slot(std::int32_t i, std::int32_t j) {
  std::uint64_t h = static_cast<std::uint32_t>(i);
  h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint32_t>(j);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return static_cast<std::size_t>(h ^ (h >> 32));
}

VORTEX_HD const GridRow* grid_row(const GridView& g, std::int32_t i, std::int32_t j) {
  const std::size_t mask = g.slots - 1;
  for (std::size_t slot = grid_slot(i, j) & mask;; slot = (slot + 1) & mask) {
    const GridRow& r = g.rows[slot];
    if (r.end < 0) return nullptr;
    if (r.i == i && r.j == j) return &r;
  }
}

// The first of a row's cells [first, end) whose k is not below `k` (end if none). The row's k
// rise by at least 1 a cell, so it lies at most k - k_first cells on: where the row is full
// there, exactly (one look back); else a binary search below that bound.
VORTEX_HD std::int32_t grid_first_from(const GridCell* cells, std::int32_t first, std::int32_t end,
                                       double k) {
  const double ahead = k - cells[first].k;
  std::int32_t hi = ahead <= 0 ? first : (ahead >= end - first ? end : first + std::int32_t(ahead));
  if (hi == first || cells[hi - 1].k < k) return hi;
  std::int32_t lo = first;
  --hi;  // cells[hi].k >= k: the answer is in [lo, hi]
  while (lo < hi) {
    const std::int32_t mid = lo + (hi - lo) / 2;
    if (cells[mid].k < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Calls visit(s) for every point with |p - q|^2 <= radius^2, s its place in the sorted arrays,
// row of cells by row of cells (not sorted by caller index).
template <class Visit>
VORTEX_HD void grid_query_places(const GridView& g, double qx, double qy, double qz, double radius,
                                 Visit&& visit) {
  if (g.size == 0 || !(radius >= 0)) return;
  const double r2 = radius * radius;
  // The cells that may hold a point within the radius; the margin covers the rounding of q -+ r.
  const double reach = radius + 1e-9 * g.cell;
  const double lo[3] = {floor((qx - reach) / g.cell), floor((qy - reach) / g.cell),
                        floor((qz - reach) / g.cell)};
  const double hi[3] = {floor((qx + reach) / g.cell), floor((qy + reach) / g.cell),
                        floor((qz + reach) / g.cell)};
  // Cells beyond the range of any point hold none. The cells of one row (i, j) with k from lo to
  // hi follow one another in the sorted arrays (sorted by i, j, k): one run of points per row.
  const double limit = kGridCellLimit;
  const double k_lo = fmax(lo[2], -limit), k_hi = fmin(hi[2], limit);
  for (double i = fmax(lo[0], -limit); i <= fmin(hi[0], limit); ++i)
    for (double j = fmax(lo[1], -limit); j <= fmin(hi[1], limit); ++j) {
      const GridRow* row = grid_row(g, static_cast<std::int32_t>(i), static_cast<std::int32_t>(j));
      if (!row) continue;
      const std::int32_t a = grid_first_from(g.cells, row->first, row->end, k_lo);
      std::int32_t b = a;  // past the last cell with k <= k_hi: a few cells on
      while (b < row->end && g.cells[b].k <= k_hi) ++b;
      if (a >= b) continue;
      for (std::int32_t s = g.cells[a].begin; s < g.cells[b].begin; ++s) {
        const double dx = g.x[s] - qx, dy = g.y[s] - qy, dz = g.z[s] - qz;
        if (dx * dx + dy * dy + dz * dz <= r2) visit(s);
      }
    }
}

// Calls visit(caller index) for every point with |p - q|^2 <= radius^2 (not sorted).
template <class Visit>
VORTEX_HD void grid_query(const GridView& g, double qx, double qy, double qz, double radius,
                          Visit&& visit) {
  grid_query_places(g, qx, qy, qz, radius, [&](std::int32_t s) { visit(g.index[s]); });
}

}  // namespace vortex
