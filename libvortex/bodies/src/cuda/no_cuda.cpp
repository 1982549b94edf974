// The bodies' GPU parts in a build without CUDA: none.

#include "near_wall_device.hpp"
#include "wall_points_device.hpp"

namespace vortex::bodies::detail {

std::unique_ptr<NearWallDevice> NearWallDevice::create(const Surface&, RuleView) {
  return nullptr;
}

std::unique_ptr<WallPointsDevice> WallPointsDevice::create(const Surface&, double) {
  return nullptr;
}

}  // namespace vortex::bodies::detail
