// Final pass: the partial slots of each target group added in slot order (so the result does not
// depend on block scheduling), scaled by 1/(4 pi), written component-major, in tree order or
// through the targets' permutation.

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/launch.hpp"

namespace vortex::gpu {
namespace {

template <int NC>
__global__ void combine_kernel(Combine c) {
  const int group = blockIdx.x;
  const TargetGroup g = c.groups[group];
  const int t = threadIdx.x;
  if (t >= g.count) return;
  const int lo = c.group_slots[group], hi = c.group_slots[group + 1];
  const int stride = blockDim.x;
  const int i = g.begin + t;
  const std::size_t at = c.order ? c.order[i] : static_cast<std::size_t>(i);
#pragma unroll
  for (int k = 0; k < NC; ++k) {
    double sum = 0;
    for (int slot = lo; slot < hi; ++slot)
      sum += c.partial[(static_cast<long long>(slot) * NC + k) * stride + t];
    c.out[k * c.out_stride + at] = sum * c.scale;
  }
}

}  // namespace

void launch_combine(const Combine& c, cudaStream_t stream) {
  if (c.num_groups == 0) return;
  if (c.gradient)
    combine_kernel<components(true)><<<c.num_groups, c.block_threads, 0, stream>>>(c);
  else
    combine_kernel<components(false)><<<c.num_groups, c.block_threads, 0, stream>>>(c);
  VORTEX_CUDA_CHECK_LAUNCH("combine_kernel");
}

}  // namespace vortex::gpu
