// Internal units on the device (units.hpp).

#include <algorithm>

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/units.hpp"

namespace vortex::gpu {
namespace {

constexpr int kThreads = 256;

__global__ void scale_arrays_kernel(ScaleArrays s) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (int k = 0; k < s.count; ++k) {
    const double f = s.factor[k], g = s.second[k];
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < s.n[k];
         i += stride)
      s.dst[k][i] = s.src[k][i] * f * g;
  }
}

// The smallest flat index of a value that is not finite, by atomicMin.
__global__ void non_finite_kernel(const double* values, long long total, unsigned long long* word) {
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += stride)
    if (!isfinite(values[i])) atomicMin(word, static_cast<unsigned long long>(i));
}

int blocks_for(long long n) {
  return static_cast<int>(std::clamp<long long>((n + kThreads - 1) / kThreads, 1, 4096));
}

}  // namespace

void launch_scale_arrays(const ScaleArrays& s, cudaStream_t stream) {
  long long largest = 0;
  for (int k = 0; k < s.count; ++k) largest = std::max(largest, s.n[k]);
  if (largest == 0) return;
  scale_arrays_kernel<<<blocks_for(largest), kThreads, 0, stream>>>(s);
  VORTEX_CUDA_CHECK_LAUNCH("scale_arrays_kernel");
}

FirstNonFinite find_non_finite(const double* values, int components, long long n,
                               unsigned long long* word, cudaStream_t stream) {
  const long long total = static_cast<long long>(components) * n;
  FirstNonFinite r;
  if (total == 0) return r;
  VORTEX_CUDA_CHECK(cudaMemsetAsync(word, 0xff, sizeof(unsigned long long), stream));
  non_finite_kernel<<<blocks_for(total), kThreads, 0, stream>>>(values, total, word);
  VORTEX_CUDA_CHECK_LAUNCH("non_finite_kernel");
  unsigned long long host = 0;
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(&host, word, sizeof host, cudaMemcpyDeviceToHost, stream));
  VORTEX_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (host == ~0ull) return r;
  r.component = static_cast<int>(host / static_cast<unsigned long long>(n));
  r.index = static_cast<long long>(host % static_cast<unsigned long long>(n));
  return r;
}

}  // namespace vortex::gpu
