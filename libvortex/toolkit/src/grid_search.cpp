#include "vortex/grid_search.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "parallel_sort.hpp"

namespace vortex {

namespace {

constexpr double kLimit = 1073741824.0;  // 2^30 cells from the origin

std::size_t spread(std::int32_t i, std::int32_t j, std::int32_t k) {
  std::uint64_t h = static_cast<std::uint32_t>(i);
  h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint32_t>(j);
  h = h * 0x9E3779B97F4A7C15ull ^ static_cast<std::uint32_t>(k);
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ull;
  return static_cast<std::size_t>(h ^ (h >> 32));
}

}  // namespace

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
    const bool ok = std::abs(c[0]) < kLimit && std::abs(c[1]) < kLimit && std::abs(c[2]) < kLimit;
    bad = bad || !ok;
    if (ok)
      order_[q] = {static_cast<std::int32_t>(c[0]), static_cast<std::int32_t>(c[1]),
                   static_cast<std::int32_t>(c[2]), static_cast<std::int32_t>(q)};
  }
  if (bad)
    throw std::invalid_argument("GridSearch: a point lies too far from the origin (or is NaN)");
  // By cell, then caller index (a fixed layout).
  detail::parallel_sort(order_, sort_buffer_, sort_bounds_);
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
  table_.assign(slots, Cell{0, 0, 0, 0, -1});
  for (std::size_t s = 0; s < order_.size();) {
    std::size_t e = s + 1;
    while (e < order_.size() &&
           std::equal(order_[e].begin(), order_[e].begin() + 3, order_[s].begin()))
      ++e;
    const auto& c = order_[s];
    std::size_t slot = spread(c[0], c[1], c[2]) & (slots - 1);
    while (table_[slot].end >= 0) slot = (slot + 1) & (slots - 1);
    table_[slot] = {c[0], c[1], c[2], static_cast<std::int32_t>(s), static_cast<std::int32_t>(e)};
    s = e;
  }
}

const GridSearch::Cell* GridSearch::find(std::int32_t i, std::int32_t j, std::int32_t k) const {
  const std::size_t mask = table_.size() - 1;
  for (std::size_t slot = spread(i, j, k) & mask;; slot = (slot + 1) & mask) {
    const Cell& c = table_[slot];
    if (c.end < 0) return nullptr;
    if (c.i == i && c.j == j && c.k == k) return &c;
  }
}

void GridSearch::query(double qx, double qy, double qz, double radius,
                       std::vector<int>& out) const {
  out.clear();
  if (index_.empty() || !(radius >= 0)) return;
  const double r2 = radius * radius;
  // The cells that may hold a point within the radius; the margin covers the rounding of q -+ r.
  const double reach = radius + 1e-9 * cell_;
  const double lo[3] = {std::floor((qx - reach) / cell_), std::floor((qy - reach) / cell_),
                        std::floor((qz - reach) / cell_)};
  const double hi[3] = {std::floor((qx + reach) / cell_), std::floor((qy + reach) / cell_),
                        std::floor((qz + reach) / cell_)};
  // Cells beyond the range of any point hold none. The cells of one row (i, j) and k from lo to
  // hi follow one another in the sorted arrays (sorted by i, j, k): one run of points per row,
  // from the first cell of the row that exists to the last.
  const double limit = kLimit;
  const double k_lo = std::max(lo[2], -limit), k_hi = std::min(hi[2], limit);
  for (double i = std::max(lo[0], -limit); i <= std::min(hi[0], limit); ++i)
    for (double j = std::max(lo[1], -limit); j <= std::min(hi[1], limit); ++j) {
      const auto ii = static_cast<std::int32_t>(i), jj = static_cast<std::int32_t>(j);
      const Cell* first = nullptr;
      double k = k_lo;
      for (; k <= k_hi && !first; ++k) first = find(ii, jj, static_cast<std::int32_t>(k));
      if (!first) continue;
      const Cell* last = first;
      for (double m = k_hi; m >= k; --m)
        if (const Cell* c = find(ii, jj, static_cast<std::int32_t>(m))) {
          last = c;
          break;
        }
      for (std::int32_t s = first->begin; s < last->end; ++s) {
        const double dx = x_[s] - qx, dy = y_[s] - qy, dz = z_[s] - qz;
        if (dx * dx + dy * dy + dz * dz <= r2) out.push_back(index_[s]);
      }
    }
  std::sort(out.begin(), out.end());
}

}  // namespace vortex
