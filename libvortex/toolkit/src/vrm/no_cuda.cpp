// The toolkit's GPU parts in a build without CUDA: none.

#include "particle_control/control_cuda.hpp"
#include "vrm/vrm_round_cuda.hpp"

namespace vortex::detail {

std::unique_ptr<VrmDevice> VrmDevice::create() {
  return nullptr;
}

std::unique_ptr<ControlDevice> ControlDevice::create() {
  return nullptr;
}

}  // namespace vortex::detail
