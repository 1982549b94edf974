#pragma once
// One macro marks every function that is shared between host code and CUDA kernels.

#if defined(__CUDACC__)
#define VORTEX_HD __host__ __device__ __forceinline__
#else
#define VORTEX_HD inline
#endif

// Unrolls the loop that follows in device code (where arrays indexed by its counter then stay in
// registers); nothing on the host.
#if defined(__CUDACC__)
#define VORTEX_UNROLL _Pragma("unroll")
#else
#define VORTEX_UNROLL
#endif

namespace vortex {

// Whether a condition holds for any active thread of the warp. Used to skip a rarely needed
// branch as a whole warp on the GPU; on the CPU it is always true, so vectorized loops stay
// branch-free and a per-lane select picks the result.
VORTEX_HD bool any_in_warp(bool condition) {
#if defined(__CUDA_ARCH__)
  return __any_sync(__activemask(), condition);
#else
  (void)condition;
  return true;
#endif
}

}  // namespace vortex
