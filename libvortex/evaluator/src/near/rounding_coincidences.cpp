// Pairs that rounding made coincident, on the CPU: the pair sums drop every zero offset
// (DropAtZero, math/pair_kernel.hpp), and this adds back the pairs whose positions differ but
// round to the same point in the arithmetic of the sums.

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include <omp.h>

#include "backend/cpu_stages.hpp"
#include "vortex/math/constants.hpp"
#include "vortex/math/point_key.hpp"

namespace vortex::detail {
namespace {

// A point as the sums read it: its three coordinates rounded to T.
template <class T>
bool same_point(const T* a, const T* b) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

template <class T>
std::uint64_t point_hash(const T* v) {
  std::uint64_t h = 0;
  for (int k = 0; k < 3; ++k) h = mix_bits(h ^ position_bits(static_cast<double>(v[k])));
  return h;  // -0 and +0 hash alike (position_bits), as they compare equal
}

}  // namespace

template <class T>
void add_rounding_coincidences(const SourceArrays<T>& s, std::size_t num_sources,
                               PointsView targets, Origin o, Core core, bool gradient,
                               ComponentArrays out, CoincidenceScratch<T>& scratch) {
  // A regularized pair's velocity vanishes at a zero offset: only the gradient has a limit there.
  if (!gradient && core != Core::Singular) return;
  const std::ptrdiff_t nt = static_cast<std::ptrdiff_t>(targets.size());
  std::vector<T>& points = scratch.points;
  points.resize(3 * targets.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < nt; ++i) {
    const PackedPoint p = packed_point(targets, static_cast<std::size_t>(i), o);
    points[3 * i] = static_cast<T>(p.x);
    points[3 * i + 1] = static_cast<T>(p.y);
    points[3 * i + 2] = static_cast<T>(p.z);
  }
  // Open addressing over the targets' rounded points: a power-of-two table at most half full, each
  // slot a target or -1; targets on one point take consecutive probes.
  std::size_t size = 16;
  while (size < 2 * targets.size()) size *= 2;
  const std::size_t mask = size - 1;
  std::vector<std::int64_t>& slots = scratch.slots;
  slots.assign(size, -1);
  for (std::ptrdiff_t i = 0; i < nt; ++i) {
    std::size_t k = point_hash(&points[3 * i]) & mask;
    while (slots[k] >= 0) k = (k + 1) & mask;
    slots[k] = i;
  }

  // The pairs (target, source) on one rounded point whose exact positions differ (their keys do).
  scratch.found.resize(static_cast<std::size_t>(omp_get_max_threads()));
  for (auto& f : scratch.found) f.clear();
  const std::ptrdiff_t ns = static_cast<std::ptrdiff_t>(num_sources);
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t j = 0; j < ns; ++j) {
    const T p[3] = {s.x[j], s.y[j], s.z[j]};
    for (std::size_t k = point_hash(p) & mask; slots[k] >= 0; k = (k + 1) & mask) {
      const std::size_t i = static_cast<std::size_t>(slots[k]);
      if (!same_point(&points[3 * i], p)) continue;
      if (static_cast<T>(packed_point(targets, i, o).key) != s.key[j])
        scratch.found[omp_get_thread_num()].emplace_back(i, static_cast<std::size_t>(j));
    }
  }

  const double f0 =
      dispatch_core(core, [](auto c) { return core_shape<decltype(c)::value>(0.0).f; });
  for (const auto& pairs : scratch.found)
    for (const auto& [i, j] : pairs) {
      if (core == Core::Singular) {
        out[0][i] = std::nan("");  // no limit: the Solver's check sees it
        continue;
      }
      const double w[3] = {kInvFourPi * f0 * s.gx[j], kInvFourPi * f0 * s.gy[j],
                           kInvFourPi * f0 * s.gz[j]};
      double du[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
      add_cross_matrix(w, du);
      for (int k = 0; k < 9; ++k) out[3 + k][i] += du[k];
    }
}

template void add_rounding_coincidences(const SourceArrays<double>&, std::size_t, PointsView,
                                        Origin, Core, bool, ComponentArrays,
                                        CoincidenceScratch<double>&);
template void add_rounding_coincidences(const SourceArrays<float>&, std::size_t, PointsView, Origin,
                                        Core, bool, ComponentArrays, CoincidenceScratch<float>&);

}  // namespace vortex::detail
