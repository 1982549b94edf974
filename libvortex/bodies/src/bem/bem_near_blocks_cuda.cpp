// BemOperator's near corrections on the GPU (vortex/gpu/bem_near_blocks.hpp): the blocks go to the
// device once, at the operator's construction.

#include "bem/bem_near_blocks_cuda.hpp"

#include "vortex/gpu/bem_near_blocks.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies::detail {

namespace {

class CudaBemNearBlocks final : public BemNearBlocksDevice {
 public:
  explicit CudaBemNearBlocks(const NearField& near)
      : kernel_({near.offsets.data(), near.j.data(), near.tangential.data(), near.normal.data()},
                near.size()) {}

  void corrections(const double* gamma, double* out) override { kernel_.corrections(gamma, out); }

 private:
  gpu::BemNearBlocksKernel kernel_;
};

}  // namespace

std::unique_ptr<BemNearBlocksDevice> BemNearBlocksDevice::create(const NearField& near) {
  if (!cuda_available()) return nullptr;
  return std::make_unique<CudaBemNearBlocks>(near);
}

}  // namespace vortex::bodies::detail
