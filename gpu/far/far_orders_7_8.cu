// Far-field kernels of orders 7 to 8.

#include "far_kernel.cuh"

namespace vortex::gpu {
VORTEX_INSTANTIATE_FAR_ORDER(7)
VORTEX_INSTANTIATE_FAR_ORDER(8)
}  // namespace vortex::gpu
