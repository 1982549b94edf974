#pragma once
// The closest wall points of many points on the GPU (vortex/bodies/wall.hpp's closest_within):
// the panels and a grid of their centroids (vortex/math/grid_cells.hpp) stay on the device;
// one thread per point finds the nearest centroid within the grid's cell, and where the wall may
// lie within the reach, the closest point among the panels whose centroid lies within that
// distance plus the largest distance from a centroid to its panel's corners
// (vortex/math/closest_panel.hpp). The candidates are taken in the grid's order, not by
// ascending index: a tie to rounding between two panels (a point closest to their shared edge)
// may go to the other one, with the same point and distance to rounding.

#include <cstddef>
#include <memory>

#include "vortex/math/closest_panel.hpp"
#include "vortex/math/grid_cells.hpp"

namespace vortex::gpu {

class WallPointsKernel {
 public:
  // `centroids`: a grid over the panels' centroids (host arrays) with cells at least as wide as
  // the widest reach asked for plus twice `corner_reach`, the largest distance from a centroid to
  // a corner of its panel.
  WallPointsKernel(const bodies::Panel* panels, std::size_t count, const GridView& centroids,
                   double corner_reach);
  ~WallPointsKernel();
  WallPointsKernel(const WallPointsKernel&) = delete;
  WallPointsKernel& operator=(const WallPointsKernel&) = delete;

  // out[k]: the closest wall point of (x[k], y[k], z[k]) where the wall may lie within `reach`
  // (at most the grid's cell less twice the corner reach); elsewhere panel -1 and a lower bound
  // of the distance above `reach`. Runs on a high-priority stream (its blocks go before those of
  // the other work on the device); returns once `out` is written.
  void closest_within(const double* x, const double* y, const double* z, std::size_t n,
                      double reach, bodies::WallPoint* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vortex::gpu
