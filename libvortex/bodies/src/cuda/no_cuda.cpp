// The bodies' GPU parts in a build without CUDA: none.

#include "near_wall_device.hpp"

namespace vortex::bodies::detail {

std::unique_ptr<NearWallDevice> NearWallDevice::create(const Surface&, RuleView) {
  return nullptr;
}

}  // namespace vortex::bodies::detail
