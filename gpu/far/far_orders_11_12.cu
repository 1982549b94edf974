// Far-field kernels of orders 11 to 12.

#include "far_kernel.cuh"

namespace vortex::gpu {
VORTEX_INSTANTIATE_FAR_ORDER(11)
VORTEX_INSTANTIATE_FAR_ORDER(12)
}  // namespace vortex::gpu
