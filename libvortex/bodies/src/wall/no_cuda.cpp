// The bodies' GPU parts in a build without CUDA: none.

#include "wall/near_wall_cuda.hpp"
#include "wall/wall_points_cuda.hpp"

namespace vortex::bodies::detail {

std::unique_ptr<NearWallDevice> NearWallDevice::create(const Surface&, RuleView) {
  return nullptr;
}

std::unique_ptr<WallPointsDevice> WallPointsDevice::create(const Surface&, double) {
  return nullptr;
}

}  // namespace vortex::bodies::detail
