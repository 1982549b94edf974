#pragma once
// The VRM's hand-over as a gather, on the host and on the device: what the owners solved in one
// pass give particle j. Every owner within R of j may hold j in its list (the neighbourhoods of
// these owners are not cut by a wall, so "within R" is symmetric); j walks the grid's cells around
// it, finds itself in each solved owner's ascending list and sums fraction times strength. The
// walk's order is fixed by the grid, so the sums do not depend on threads or timing.

#include <cstdint>

#include "vortex/math/grid_cells.hpp"
#include "vortex/math/hd.hpp"

namespace vortex::vrm {

// The solved owners' lists in fixed slots: owner i (when slot_of[i] = t >= 0) has size[t]
// neighbours, ascending, at neighbors[t * capacity ...] with their fractions beside them.
struct SolvedSlots {
  const std::int32_t* slot_of;  // per particle: its slot, or -1 when not solved in this pass
  const std::int32_t* size;     // per slot
  const std::int32_t* neighbors;
  const double* fractions;
  int capacity;
};

// The position of j in the ascending list [first, first + n), or -1.
VORTEX_HD int find_ascending(const std::int32_t* first, int n, std::int32_t j) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (first[mid] < j)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && first[lo] == j ? lo : -1;
}

// Sums into received[0..2] what the solved owners within `radius` of particle j give it: the
// grid is built over the particles (x, y, z), whose strengths are (gx, gy, gz).
VORTEX_HD void received(const GridView& grid, const double* x, const double* y, const double* z,
                        const double* gx, const double* gy, const double* gz,
                        const SolvedSlots& slots, std::int32_t j, double radius,
                        double received[3]) {
  double sx = 0, sy = 0, sz = 0;
  grid_query(grid, x[j], y[j], z[j], radius, [&](std::int32_t i) {
    const std::int32_t t = slots.slot_of[i];
    if (t < 0) return;
    const long long base = static_cast<long long>(t) * slots.capacity;
    const int k = find_ascending(slots.neighbors + base, slots.size[t], j);
    if (k < 0) return;
    const double f = slots.fractions[base + k];
    sx += f * gx[i];
    sy += f * gy[i];
    sz += f * gz[i];
  });
  received[0] = sx;
  received[1] = sy;
  received[2] = sz;
}

}  // namespace vortex::vrm
