// Far-field kernels of orders 13 to 14.

#include "far_kernel.cuh"

namespace vortex::gpu {
VORTEX_INSTANTIATE_FAR_ORDER(13)
VORTEX_INSTANTIATE_FAR_ORDER(14)
}  // namespace vortex::gpu
