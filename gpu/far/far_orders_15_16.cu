// Far-field kernels of orders 15 to 16.

#include "far_kernel.cuh"

namespace vortex::gpu {
VORTEX_INSTANTIATE_FAR_ORDER(15)
VORTEX_INSTANTIATE_FAR_ORDER(16)
}  // namespace vortex::gpu
