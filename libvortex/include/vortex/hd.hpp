#pragma once
// One macro marks every function that is shared between host code and CUDA kernels.

#if defined(__CUDACC__)
#define VORTEX_HD __host__ __device__ __forceinline__
#else
#define VORTEX_HD inline
#endif
