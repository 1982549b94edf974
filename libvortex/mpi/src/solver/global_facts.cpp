#include "solver/global_facts.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "vortex/math/layout_grid.hpp"
#include "vortex/tolerance.hpp"

namespace vortex::mpi::detail {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Largest of -min and max of each coordinate (one MAX reduction for both ends).
void widen(double box[6], double x, double y, double z) {
  const double p[3] = {x, y, z};
  for (int k = 0; k < 3; ++k) {
    box[k] = std::max(box[k], -p[k]);
    box[3 + k] = std::max(box[3 + k], p[k]);
  }
}

// The layout's density contrast and dimension (tolerance.hpp, layout_of) from every rank's counts
// on the grid of the whole set.
SourceLayout global_layout(const Comm& comm, SourcesView s, long long n, const double lo[3],
                           const double hi[3]) {
  SourceLayout layout;
  layout.num_sources = static_cast<std::size_t>(n);
  if (n < 2) return layout;
  const int k = layout_grid::cells_per_side(static_cast<std::size_t>(n));
  const double scale = layout_grid::cell_scale(k, lo, hi);
  if (!(scale > 0)) return layout;
  std::vector<double> count(static_cast<std::size_t>(k) * k * k, 0.0);
  for (std::size_t i = 0; i < s.size(); ++i)
    count[layout_grid::cell_of(s.x[i], s.y[i], s.z[i], lo, scale, k)] += 1;
  comm.allreduce(count.data(), static_cast<int>(count.size()), MPI_SUM);
  layout_grid::count_statistics(count.data(), k, static_cast<double>(n), layout.contrast,
                                layout.dimension);
  if (filament_share(layout) > 0) {
    // Each rank's sample at the whole set's stride, gathered in rank order: the spread of the
    // union (not the one-rank sample: a filament's picks may differ from one rank's).
    const std::vector<double> all =
        comm.allgatherv(spread_sample(s, spread_stride(static_cast<std::size_t>(n))));
    layout.spread = spread_across(all.data(), all.size() / 4, lo, scale, k);
  }
  return layout;
}

}  // namespace

GlobalFacts global_facts(const Comm& comm, SourcesView s, PointsView t) {
  GlobalFacts g;
  const std::ptrdiff_t ns = static_cast<std::ptrdiff_t>(s.size());
  const std::ptrdiff_t nt = static_cast<std::ptrdiff_t>(t.size());
  // Boxes of sources and targets, largest strength and sigma, -smallest sigma, counts.
  double v[16] = {-kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf, -kInf,
                  -kInf, -kInf, -kInf, -kInf, 0,     0,     -kInf, 0};
  for (std::ptrdiff_t i = 0; i < ns; ++i) {
    widen(v, s.x[i], s.y[i], s.z[i]);
    v[12] = std::max({v[12], std::abs(s.gx[i]), std::abs(s.gy[i]), std::abs(s.gz[i])});
    v[13] = std::max(v[13], s.sigma[i]);
    v[14] = std::max(v[14], -s.sigma[i]);
  }
  for (std::ptrdiff_t i = 0; i < nt; ++i) widen(v + 6, t.x[i], t.y[i], t.z[i]);
  comm.allreduce(v, 15, MPI_MAX);
  g.sources = comm.sum(static_cast<long long>(ns));
  g.targets = comm.sum(static_cast<long long>(nt));
  if (g.sources == 0) return g;
  double lo[3], hi[3], tlo[3], thi[3];
  for (int k = 0; k < 3; ++k) {
    lo[k] = -v[k], hi[k] = v[3 + k];
    tlo[k] = -v[6 + k], thi[k] = v[9 + k];
  }
  if (g.targets == 0)
    for (int k = 0; k < 3; ++k) tlo[k] = lo[k], thi[k] = hi[k];
  double width = 0;
  for (int k = 0; k < 3; ++k) width = std::max(width, 0.5 * hi[k] - 0.5 * lo[k]);

  vortex::detail::SourceFacts& f = g.facts;
  f.num_sources = static_cast<std::size_t>(g.sources);
  f.on_host = false;
  f.given_units = vortex::detail::units_from(width, v[12], v[13]);
  // The mean offset from the middle of the sources' box, in sigmas (mean_offset_in_sigmas).
  const double o[3] = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
  double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
  for (std::ptrdiff_t i = 0; i < ns; ++i) {
    const double dx = s.x[i] - o[0], dy = s.y[i] - o[1], dz = s.z[i] - o[2];
    sum += std::sqrt(dx * dx + dy * dy + dz * dz) / s.sigma[i];
  }
  f.given_mean_offset = comm.sum(sum) / static_cast<double>(g.sources);
  f.given_layout = global_layout(comm, s, g.sources, lo, hi);
  f.given_range = vortex::detail::float_range_from(lo, hi, -v[14], tlo, thi);
  return g;
}

}  // namespace vortex::mpi::detail
