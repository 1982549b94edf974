#include "vortex/grid_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include <omp.h>

#include "search/parallel_sort.hpp"
#include "search/radix_sort.hpp"

namespace vortex {

void GridSearch::rebuild(PointsView p, double cell) {
  if (!(cell > 0) || !std::isfinite(cell))
    throw std::invalid_argument("GridSearch: the cell size must be positive");
  cell_ = cell;
  const auto n = static_cast<std::ptrdiff_t>(p.size());
  order_.resize(n);
  bool bad = false;
#pragma omp parallel for if (n > 20000) reduction(|| : bad)
  for (std::ptrdiff_t q = 0; q < n; ++q) {
    const double c[3] = {std::floor(p.x[q] / cell), std::floor(p.y[q] / cell),
                         std::floor(p.z[q] / cell)};
    const bool ok = std::abs(c[0]) < kGridCellLimit && std::abs(c[1]) < kGridCellLimit &&
                    std::abs(c[2]) < kGridCellLimit;
    bad = bad || !ok;
    if (ok)
      order_[q] = {static_cast<std::int32_t>(c[0]), static_cast<std::int32_t>(c[1]),
                   static_cast<std::int32_t>(c[2]), static_cast<std::int32_t>(q)};
  }
  if (bad)
    throw std::invalid_argument("GridSearch: a point lies too far from the origin (or is NaN)");
  // By cell, then caller index (a fixed layout).
  sort_by_cell();
  index_.resize(n);
  x_.resize(n);
  y_.resize(n);
  z_.resize(n);
#pragma omp parallel for if (n > 20000)
  for (std::ptrdiff_t s = 0; s < n; ++s) {
    const std::int32_t q = order_[s][3];
    index_[s] = q;
    x_[s] = p.x[q];
    y_[s] = p.y[q];
    z_[s] = p.z[q];
  }
  list_cells();
  list_rows();
}

// The occupied cells in the sorted order (a cell begins where the point before lies in another),
// numbered by a scan of each thread's count, and a last entry holding the point count.
void GridSearch::list_cells() {
  const auto n = static_cast<std::ptrdiff_t>(order_.size());
  const auto starts_cell = [&](std::ptrdiff_t s) {
    return s == 0 || !std::equal(order_[s].begin(), order_[s].begin() + 3, order_[s - 1].begin());
  };
  const int parts = n > 20000 ? std::max(1, omp_get_max_threads()) : 1;
  const std::ptrdiff_t width = (n + parts - 1) / parts;
  std::vector<std::size_t>& at = part_offsets_;
  at.assign(parts + 1, 0);
#pragma omp parallel for schedule(static, 1) if (parts > 1)
  for (int t = 0; t < parts; ++t) {
    std::size_t count = 0;
    for (std::ptrdiff_t s = t * width; s < std::min(n, (t + 1) * width); ++s)
      count += starts_cell(s);
    at[t + 1] = count;
  }
  for (int t = 0; t < parts; ++t) at[t + 1] += at[t];
  cells_.resize(at[parts] + 1);
#pragma omp parallel for schedule(static, 1) if (parts > 1)
  for (int t = 0; t < parts; ++t) {
    std::size_t c = at[t];
    for (std::ptrdiff_t s = t * width; s < std::min(n, (t + 1) * width); ++s)
      if (starts_cell(s)) cells_[c++] = {order_[s][2], static_cast<std::int32_t>(s)};
  }
  cells_.back() = {0, static_cast<std::int32_t>(n)};
}

// The rows' table: one slot per run of cells with the same (i, j), the runs taken in parallel: a
// thread claims a free slot by a compare-and-swap of its end. Which free slot a row lands in may
// vary from run to run; what a lookup finds, and so every query's result and order, does not.
void GridSearch::list_rows() {
  const auto cells = static_cast<std::ptrdiff_t>(cells_.size()) - 1;
  const auto row_of = [&](std::ptrdiff_t c) {
    const auto& o = order_[cells_[c].begin];
    return std::array<std::int32_t, 2>{o[0], o[1]};
  };
  std::size_t rows = 0;
#pragma omp parallel for if (cells > 20000) reduction(+ : rows)
  for (std::ptrdiff_t c = 0; c < cells; ++c) rows += c == 0 || row_of(c) != row_of(c - 1);
  std::size_t slots = 64;
  while (slots < 2 * rows) slots *= 2;
  rows_.assign(slots, GridRow{0, 0, 0, -1});
  const std::size_t mask = slots - 1;
#pragma omp parallel for if (cells > 20000) schedule(static)
  for (std::ptrdiff_t c = 0; c < cells; ++c) {
    const std::array<std::int32_t, 2> r = row_of(c);
    if (c > 0 && row_of(c - 1) == r) continue;
    std::ptrdiff_t e = c + 1;
    while (e < cells && row_of(e) == r) ++e;
    for (std::size_t slot = grid_slot(r[0], r[1]) & mask;; slot = (slot + 1) & mask) {
      std::int32_t free = -1;
      if (!__atomic_compare_exchange_n(&rows_[slot].end, &free, static_cast<std::int32_t>(e), false,
                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        continue;
      rows_[slot].i = r[0];
      rows_[slot].j = r[1];
      rows_[slot].first = static_cast<std::int32_t>(c);
      break;
    }
  }
}

// The cells packed into one key (i, then j, then k, each relative to its smallest) where their
// ranges fit in 64 bits, sorted by a stable radix sort of the keys in caller order, which leaves
// equal cells in caller order: the order of the comparison sort of (i, j, k, caller index), which
// wider ranges still take.
void GridSearch::sort_by_cell() {
  const auto n = static_cast<std::ptrdiff_t>(order_.size());
  std::int32_t lo[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, hi[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
#pragma omp parallel for if (n > 20000) reduction(min : lo[:3]) reduction(max : hi[:3])
  for (std::ptrdiff_t q = 0; q < n; ++q)
    for (int d = 0; d < 3; ++d) {
      lo[d] = std::min(lo[d], order_[q][d]);
      hi[d] = std::max(hi[d], order_[q][d]);
    }
  int width[3] = {0, 0, 0};
  for (int d = 0; d < 3 && n > 0; ++d)
    while ((static_cast<std::uint64_t>(static_cast<std::int64_t>(hi[d]) - lo[d]) >> width[d]) != 0)
      ++width[d];
  const int bits = width[0] + width[1] + width[2];
  if (n == 0 || bits > 64) {
    detail::parallel_sort(order_, sort_buffer_, sort_bounds_);
    return;
  }
  keys_.resize(n);
  values_.resize(n);
#pragma omp parallel for if (n > 20000)
  for (std::ptrdiff_t q = 0; q < n; ++q) {
    const auto& c = order_[q];
    keys_[q] = (static_cast<std::uint64_t>(c[0] - lo[0]) << (width[1] + width[2])) |
               (static_cast<std::uint64_t>(c[1] - lo[1]) << width[2]) |
               static_cast<std::uint64_t>(c[2] - lo[2]);
    values_[q] = static_cast<std::int32_t>(q);
  }
  detail::radix_sort(keys_, values_, bits, key_buffer_, value_buffer_, counts_);
  sort_buffer_.resize(n);
#pragma omp parallel for if (n > 20000)
  for (std::ptrdiff_t s = 0; s < n; ++s) sort_buffer_[s] = order_[values_[s]];
  order_.swap(sort_buffer_);
}

void GridSearch::query(double qx, double qy, double qz, double radius,
                       std::vector<int>& out) const {
  out.clear();
  grid_query(view(), qx, qy, qz, radius, [&](std::int32_t q) { out.push_back(q); });
  std::sort(out.begin(), out.end());
}

}  // namespace vortex
