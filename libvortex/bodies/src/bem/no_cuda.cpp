// The boundary-element solve's GPU parts in a build without CUDA: none.

#include "bem/bem_near_blocks_cuda.hpp"
#include "bem/bem_preconditioner_cuda.hpp"

namespace vortex::bodies::detail {

std::unique_ptr<BemNearBlocksDevice> BemNearBlocksDevice::create(const NearField&) {
  return nullptr;
}

std::unique_ptr<BemPreconditionerDevice> BemPreconditionerDevice::create(
    const BemPreconditionerView&) {
  return nullptr;
}

}  // namespace vortex::bodies::detail
