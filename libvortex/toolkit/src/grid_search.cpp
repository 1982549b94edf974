#include "vortex/grid_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "parallel_sort.hpp"
#include "radix_sort.hpp"

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
  std::size_t cells = 0;
#pragma omp parallel for if (n > 20000) reduction(+ : cells)
  for (std::ptrdiff_t s = 0; s < n; ++s) {
    const std::int32_t q = order_[s][3];
    index_[s] = q;
    x_[s] = p.x[q];
    y_[s] = p.y[q];
    z_[s] = p.z[q];
    cells += s == 0 || !std::equal(order_[s].begin(), order_[s].begin() + 3, order_[s - 1].begin());
  }
  std::size_t slots = 64;
  while (slots < 2 * cells) slots *= 2;
  table_.assign(slots, GridCell{0, 0, 0, 0, -1});
  // One slot per run of points in the same cell, the runs taken in parallel: a thread claims a
  // free slot by a compare-and-swap of its end. Which free slot a cell lands in may vary from run
  // to run; what a lookup finds, and so every query's result and order, does not.
  const std::size_t mask = slots - 1;
  const auto same_cell = [&](std::ptrdiff_t a, std::ptrdiff_t b) {
    return std::equal(order_[a].begin(), order_[a].begin() + 3, order_[b].begin());
  };
#pragma omp parallel for if (n > 20000) schedule(static)
  for (std::ptrdiff_t s = 0; s < n; ++s) {
    if (s > 0 && same_cell(s, s - 1)) continue;
    std::ptrdiff_t e = s + 1;
    while (e < n && same_cell(e, s)) ++e;
    const auto& c = order_[s];
    for (std::size_t slot = grid_slot(c[0], c[1], c[2]) & mask;; slot = (slot + 1) & mask) {
      std::int32_t free = -1;
      if (!__atomic_compare_exchange_n(&table_[slot].end, &free, static_cast<std::int32_t>(e),
                                       false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        continue;
      table_[slot].i = c[0];
      table_[slot].j = c[1];
      table_[slot].k = c[2];
      table_[slot].begin = static_cast<std::int32_t>(s);
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
