// L2P of the local expansions on the device (local_launch.hpp): one block a leaf under a node
// that holds an expansion. The block shifts that expansion to the leaf's centre (or takes the
// leaf's own), turns it into a local gradient expansion (l2p.hpp), and each thread evaluates it at
// its targets in double, adding to the combined results. A template on the local order Q, so that
// the evaluation's harmonics stay in registers.

#include <algorithm>

#include "local_shared.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/math/order_dispatch.hpp"
#include "vortex/multipole/l2p.hpp"

namespace vortex::gpu {
namespace {

namespace mp = vortex::multipole;

constexpr int kThreads = 128;

// Doubles of shared memory: the expansion, harmonics, the gradient expansion's scratch and it.
constexpr int l2p_shared(int q) {
  return mp::local_size(q) + mp::coefficient_count(q) + mp::local_gradient_scratch_size(q) +
         mp::local_gradient_expansion_size(q);
}

template <int Q, bool Gradient>
__global__ void l2p_kernel(LocalField f) {
  extern __shared__ double shared[];
  const LocalLists& l = f.lists;
  const int t = l.leaves[blockIdx.x];
  if (!l.has_local[t]) return;
  constexpr int size = mp::local_size(Q), count = mp::coefficient_count(Q);
  double* L = shared;
  double* R = L + size;
  double* scratch = R + count;
  double* G = scratch + mp::local_gradient_scratch_size(Q);
  if (l.m2l_count[t] > 0) {
    const double* own = f.locals + static_cast<long long>(l.stored_index[t]) * size;
    for (int i = threadIdx.x; i < size; i += blockDim.x) L[i] = own[i];
  } else {
    for (int i = threadIdx.x; i < size; i += blockDim.x) L[i] = 0;
    __syncthreads();
    detail::shift_local(l, f, l.local_from[t], t, R, L);
  }
  __syncthreads();
  for (int step = 0; step < 2; ++step) {
    if (threadIdx.x < 3) mp::local_gradient_expansion_into(Q, L, G, scratch, threadIdx.x, 3, step);
    __syncthreads();
  }
  const KdNode& node = l.targets[t];
  constexpr int components = Gradient ? 12 : 3;
  for (int i = node.begin + threadIdx.x; i < node.end; i += blockDim.x) {
    double r[12];
    mp::local_gradient_expansion_at<Q>(G, f.x[i] - node.center[0], f.y[i] - node.center[1],
                                       f.z[i] - node.center[2], r);
    const std::size_t at = f.permutation[i];
    for (int c = 0; c < components; ++c) f.out[c * f.out_stride + at] += f.scale * r[c];
  }
}

template <int Q, bool Gradient>
void launch(const LocalField& f, cudaStream_t stream) {
  const std::size_t bytes = sizeof(double) * l2p_shared(Q);
  VORTEX_CUDA_CHECK(cudaFuncSetAttribute(l2p_kernel<Q, Gradient>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(bytes)));
  l2p_kernel<Q, Gradient><<<f.lists.num_leaves, kThreads, bytes, stream>>>(f);
  VORTEX_CUDA_CHECK_LAUNCH("local l2p_kernel");
}

}  // namespace

void launch_local_l2p(const LocalField& f, cudaStream_t stream) {
  if (f.num_chunks == 0 || f.lists.num_leaves == 0) return;
  dispatch_order(f.order, "local expansions", [&](auto p) {
    constexpr int Q = decltype(p)::value + 2;
    if (f.gradient)
      launch<Q, true>(f, stream);
    else
      launch<Q, false>(f, stream);
    return 0;
  });
}

}  // namespace vortex::gpu
