// Far-field kernels of orders 9 to 10.

#include "far_kernel.cuh"

namespace vortex::gpu {
VORTEX_INSTANTIATE_FAR_ORDER(9)
VORTEX_INSTANTIATE_FAR_ORDER(10)
}  // namespace vortex::gpu
