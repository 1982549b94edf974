#pragma once
// The GPU side of WallQueries' batch of closest points: the panels and a grid of their centroids on
// the device (wall_points_cuda.cpp with CUDA; no_cuda.cpp makes none in a build
// without it).

#include <memory>
#include <vector>

#include "vortex/bodies/wall.hpp"

namespace vortex::bodies::detail {

class WallPointsDevice {
 public:
  // Null in a build without CUDA. `corner_reach`: the largest distance from a panel's centroid to
  // one of its corners.
  static std::unique_ptr<WallPointsDevice> create(const Surface& surface, double corner_reach);
  virtual ~WallPointsDevice() = default;
  // WallQueries::closest_within(points[k], reach) for every k, to rounding.
  virtual void closest_within(const std::vector<double>& x, const std::vector<double>& y,
                              const std::vector<double>& z, double reach,
                              std::vector<WallPoint>& out) = 0;
};

}  // namespace vortex::bodies::detail
