// BemPreconditioner on the GPU (vortex/gpu/bem_preconditioner.hpp): its arrays go to the device
// once, at the solver's construction.

#include "bem/bem_preconditioner_cuda.hpp"

#include "vortex/gpu/bem_preconditioner.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies::detail {

namespace {

class CudaBemPreconditioner final : public BemPreconditionerDevice {
 public:
  explicit CudaBemPreconditioner(const BemPreconditionerView& m) : kernel_(m) {}
  void apply(const double* in, double* out) override { kernel_.apply(in, out); }

 private:
  gpu::BemPreconditionerKernel kernel_;
};

}  // namespace

std::unique_ptr<BemPreconditionerDevice> BemPreconditionerDevice::create(
    const BemPreconditionerView& m) {
  if (!cuda_available()) return nullptr;
  return std::make_unique<CudaBemPreconditioner>(m);
}

}  // namespace vortex::bodies::detail
