#include "vortex/grid_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <omp.h>

#include "search/parallel_sort.hpp"
#include "search/radix_sort.hpp"

namespace vortex {

namespace {

// The cell of point q (floor(x / cell) in each dimension), and whether it lies within the limit.
bool cell_of(PointsView p, std::ptrdiff_t q, double cell, std::int32_t c[3]) {
  const double f[3] = {std::floor(p.x[q] / cell), std::floor(p.y[q] / cell),
                       std::floor(p.z[q] / cell)};
  // NaN fails every comparison.
  if (!(std::abs(f[0]) < kGridCellLimit && std::abs(f[1]) < kGridCellLimit &&
        std::abs(f[2]) < kGridCellLimit))
    return false;
  for (int d = 0; d < 3; ++d) c[d] = static_cast<std::int32_t>(f[d]);
  return true;
}

// The occupied cells in the sorted order of n points (a cell begins at s where same(s, s - 1)
// is false; k(s) its k), numbered by a scan of each thread's count, and a last entry holding the
// point count.
template <class Same, class K>
void list_cells(std::ptrdiff_t n, Same same, K k, std::vector<std::size_t>& at,
                std::vector<GridCell>& cells) {
  const auto starts_cell = [&](std::ptrdiff_t s) { return s == 0 || !same(s, s - 1); };
  const int parts = n > 20000 ? std::max(1, omp_get_max_threads()) : 1;
  const std::ptrdiff_t width = (n + parts - 1) / parts;
  at.assign(parts + 1, 0);
#pragma omp parallel for schedule(static, 1) if (parts > 1)
  for (int t = 0; t < parts; ++t) {
    std::size_t count = 0;
    for (std::ptrdiff_t s = t * width; s < std::min(n, (t + 1) * width); ++s)
      count += starts_cell(s);
    at[t + 1] = count;
  }
  for (int t = 0; t < parts; ++t) at[t + 1] += at[t];
  cells.resize(at[parts] + 1);
#pragma omp parallel for schedule(static, 1) if (parts > 1)
  for (int t = 0; t < parts; ++t) {
    std::size_t c = at[t];
    for (std::ptrdiff_t s = t * width; s < std::min(n, (t + 1) * width); ++s)
      if (starts_cell(s)) cells[c++] = {k(s), static_cast<std::int32_t>(s)};
  }
  cells.back() = {0, static_cast<std::int32_t>(n)};
}

// The rows' table: one slot per run of cells with the same (i, j) (row(s) of the cells' first
// points), the runs taken in parallel: a thread claims a free slot by a compare-and-swap of its
// end. Which free slot a row lands in may vary from run to run; what a lookup finds, and so every
// query's result and order, does not.
template <class Row>
void list_rows(const std::vector<GridCell>& cell_list, Row row, std::vector<GridRow>& rows_out) {
  const auto cells = static_cast<std::ptrdiff_t>(cell_list.size()) - 1;
  const auto row_of = [&](std::ptrdiff_t c) { return row(cell_list[c].begin); };
  std::size_t rows = 0;
#pragma omp parallel for if (cells > 20000) reduction(+ : rows)
  for (std::ptrdiff_t c = 0; c < cells; ++c) rows += c == 0 || row_of(c) != row_of(c - 1);
  std::size_t slots = 64;
  while (slots < 2 * rows) slots *= 2;
  rows_out.assign(slots, GridRow{0, 0, 0, -1});
  const std::size_t mask = slots - 1;
#pragma omp parallel for if (cells > 20000) schedule(static)
  for (std::ptrdiff_t c = 0; c < cells; ++c) {
    const std::array<std::int32_t, 2> r = row_of(c);
    if (c > 0 && row_of(c - 1) == r) continue;
    std::ptrdiff_t e = c + 1;
    while (e < cells && row_of(e) == r) ++e;
    for (std::size_t slot = grid_slot(r[0], r[1]) & mask;; slot = (slot + 1) & mask) {
      std::int32_t free = -1;
      if (!__atomic_compare_exchange_n(&rows_out[slot].end, &free, static_cast<std::int32_t>(e),
                                       false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        continue;
      rows_out[slot].i = r[0];
      rows_out[slot].j = r[1];
      rows_out[slot].first = static_cast<std::int32_t>(c);
      break;
    }
  }
}

}  // namespace

// The points sorted by cell (i, j, k), then caller index (a fixed layout). Where the cells' ranges
// fit in 64 bits, each cell is packed into one key (i, then j, then k, each relative to its
// smallest) and the keys in caller order are sorted by a stable radix sort, which leaves equal
// cells in caller order; the cells and rows are then read from the sorted keys. Wider ranges take
// the comparison sort of (i, j, k, caller index).
void GridSearch::rebuild(PointsView p, double cell) {
  if (!(cell > 0) || !std::isfinite(cell))
    throw std::invalid_argument("GridSearch: the cell size must be positive");
  cell_ = cell;
  const auto n = static_cast<std::ptrdiff_t>(p.size());
  std::int32_t lo[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, hi[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
  bool bad = false;
  // Each point's cell, kept with its index (the keys, or the comparison sort, read them).
  order_.resize(n);
  // clang-format off
#pragma omp parallel for if (n > 20000) reduction(|| : bad) reduction(min : lo[:3]) \
    reduction(max : hi[:3])
  // clang-format on
  for (std::ptrdiff_t q = 0; q < n; ++q) {
    std::int32_t c[3];
    if (!cell_of(p, q, cell, c)) {
      bad = true;
      continue;
    }
    order_[q] = {c[0], c[1], c[2], static_cast<std::int32_t>(q)};
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], c[d]);
      hi[d] = std::max(hi[d], c[d]);
    }
  }
  if (bad)
    throw std::invalid_argument("GridSearch: a point lies too far from the origin (or is NaN)");
  int width[3] = {0, 0, 0};
  for (int d = 0; d < 3 && n > 0; ++d)
    while ((static_cast<std::uint64_t>(static_cast<std::int64_t>(hi[d]) - lo[d]) >> width[d]) != 0)
      ++width[d];
  const int bits = width[0] + width[1] + width[2];
  index_.resize(n);
  if (n > 0 && bits <= 64) {
    keys_.resize(n);
    values_.resize(n);
#pragma omp parallel for if (n > 20000)
    for (std::ptrdiff_t q = 0; q < n; ++q) {
      const std::array<std::int32_t, 4>& c = order_[q];
      keys_[q] = (static_cast<std::uint64_t>(c[0] - lo[0]) << (width[1] + width[2])) |
                 (static_cast<std::uint64_t>(c[1] - lo[1]) << width[2]) |
                 static_cast<std::uint64_t>(c[2] - lo[2]);
      values_[q] = static_cast<std::int32_t>(q);
    }
    detail::radix_sort(keys_, values_, bits, key_buffer_, value_buffer_, counts_);
    index_.swap(values_);
    // Each width is at most 31 (cells lie within 2^30 of the origin).
    const std::uint64_t k_mask = (1ull << width[2]) - 1, j_mask = (1ull << width[1]) - 1;
    const std::vector<std::uint64_t>& key = keys_;
    list_cells(
        n, [&](std::ptrdiff_t s, std::ptrdiff_t t) { return key[s] == key[t]; },
        [&](std::ptrdiff_t s) { return static_cast<std::int32_t>((key[s] & k_mask) + lo[2]); },
        part_offsets_, cells_);
    list_rows(
        cells_,
        [&](std::int32_t s) {
          const std::uint64_t ij = key[s] >> width[2], i = ij >> width[1];
          return std::array<std::int32_t, 2>{static_cast<std::int32_t>(i + lo[0]),
                                             static_cast<std::int32_t>((ij & j_mask) + lo[1])};
        },
        rows_);
  } else {
    detail::parallel_sort(order_, sort_buffer_, sort_bounds_);
#pragma omp parallel for if (n > 20000)
    for (std::ptrdiff_t s = 0; s < n; ++s) index_[s] = order_[s][3];
    list_cells(
        n,
        [&](std::ptrdiff_t s, std::ptrdiff_t t) {
          return std::equal(order_[s].begin(), order_[s].begin() + 3, order_[t].begin());
        },
        [&](std::ptrdiff_t s) { return order_[s][2]; }, part_offsets_, cells_);
    list_rows(
        cells_,
        [&](std::int32_t s) {
          return std::array<std::int32_t, 2>{order_[s][0], order_[s][1]};
        },
        rows_);
  }
  x_.resize(n);
  y_.resize(n);
  z_.resize(n);
#pragma omp parallel for if (n > 20000)
  for (std::ptrdiff_t s = 0; s < n; ++s) {
    const std::int32_t q = index_[s];
    x_[s] = p.x[q];
    y_[s] = p.y[q];
    z_[s] = p.z[q];
  }
}

void GridSearch::query(double qx, double qy, double qz, double radius,
                       std::vector<int>& out) const {
  out.clear();
  grid_query(view(), qx, qy, qz, radius, [&](std::int32_t q) { out.push_back(q); });
  std::sort(out.begin(), out.end());
}

}  // namespace vortex
