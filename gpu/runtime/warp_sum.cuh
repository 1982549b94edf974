#pragma once
// The sum of a value over a warp's 32 lanes, into lane 0 (the others hold partial sums): the
// kernels that give each lane every 32nd term of a sum.

namespace vortex::gpu::detail {

__device__ __forceinline__ double warp_sum(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

}  // namespace vortex::gpu::detail
