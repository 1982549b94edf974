// The toolkit's GPU parts in a build without CUDA: none.

#include "vrm_device.hpp"

namespace vortex::detail {

std::unique_ptr<VrmDevice> VrmDevice::create() {
  return nullptr;
}

}  // namespace vortex::detail
