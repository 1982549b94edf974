#pragma once
// Far field: M2P of the velocity expansions of each item's source nodes at the targets of its
// group, each node at its own order (far_order in math/acceptance.hpp): the first degrees of
// an expansion of order P are the expansion of the lower order.
//
// One block per work item, one thread per target. The nodes' expansions are copied into shared
// memory in batches with asynchronous copies (cp.async), two buffers deep, so the next batch
// arrives while the current one is evaluated. Evaluation is the multipole module's M2P, shared with
// the CPU; each batch is summed in the arithmetic T and added to the running sum S.
//
// Included by the far_orders_*.cu files, which instantiate a few orders each so that the orders
// compile in parallel.

#include <cuda_pipeline.h>

#include "far_orders.hpp"
#include "runtime/accumulate.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/multipole/m2p.hpp"

namespace vortex::gpu::detail {

// Nodes per shared-memory batch: about 8 KB per buffer.
template <int P, class T>
constexpr int far_batch_nodes() {
  constexpr int bytes = multipole::velocity_expansion_size(P) * int(sizeof(T));
  constexpr int n = 8192 / bytes;
  return n < 1 ? 1 : (n > 8 ? 8 : n);
}

template <int P, class T>
struct FarShared {
  static constexpr int kVectors = multipole::velocity_expansion_size(P) / 4;  // Vec4 per node
  static constexpr int kBatch = far_batch_nodes<P, T>();
  Vec4<T> v[2][kBatch * kVectors];
  Vec4<T> center[2][kBatch];
  unsigned char order[2][kBatch];
};

// Queues the copy of the nodes of entries [first, first + n) into buffer `buf`.
template <int P, class T>
__device__ __forceinline__ void fetch_batch(FarShared<P, T>& sh, int buf, const int* nodes,
                                            const unsigned char* orders, int first, int n,
                                            const Vec4<T>* expansions, const Vec4<T>* centers) {
  if (threadIdx.x < n) sh.order[buf][threadIdx.x] = orders[first + threadIdx.x];
  constexpr int kv = FarShared<P, T>::kVectors;
  constexpr int chunks = sizeof(Vec4<T>) / 16;  // 16-byte copies per vector
  for (int i = threadIdx.x; i < n * kv * chunks; i += blockDim.x) {
    const int k = i / (kv * chunks);
    const int j = i - k * (kv * chunks);
    // Only the degrees of the node's own order are read.
    if (j >= multipole::velocity_slot_count(orders[first + k]) * chunks) continue;
    const char* src =
        reinterpret_cast<const char*>(expansions + static_cast<long long>(nodes[first + k]) * kv);
    char* dst = reinterpret_cast<char*>(&sh.v[buf][k * kv]);
    __pipeline_memcpy_async(dst + 16 * j, src + 16 * j, 16);
  }
  for (int i = threadIdx.x; i < n * chunks; i += blockDim.x) {
    const int k = i / chunks, j = i - k * chunks;
    __pipeline_memcpy_async(reinterpret_cast<char*>(&sh.center[buf][k]) + 16 * j,
                            reinterpret_cast<const char*>(centers + nodes[first + k]) + 16 * j, 16);
  }
  __pipeline_commit();
}

template <int P, Arithmetic A, bool Gradient>
__global__ void far_kernel(FarSum s) {
  using T = typename Types<A>::T;
  using S = typename Types<A>::S;
  using Shared = FarShared<P, T>;
  constexpr int kv = Shared::kVectors;
  constexpr int kb = Shared::kBatch;
  __shared__ Shared sh;
  const auto* expansions = static_cast<const Vec4<T>*>(s.multipoles);
  const auto* centers = static_cast<const Vec4<T>*>(s.centers);

  const int t = threadIdx.x;
  const WorkItem item = s.items[blockIdx.x];
  const TargetGroup g = s.groups[item.group];
  const bool active = t < g.count;
  const Vec4<T> x = static_cast<const Vec4<T>*>(s.targets)[g.begin + (active ? t : 0)];

  Accumulator<S, Gradient> total;
  int first = item.entry_begin;
  int n = min(kb, item.entry_end - first);
  int buf = 0;
  fetch_batch<P, T>(sh, buf, s.nodes, s.orders, first, n, expansions, centers);
  while (n > 0) {
    const int next = first + n;
    const int next_n = min(kb, item.entry_end - next);
    if (next_n > 0) {
      fetch_batch<P, T>(sh, buf ^ 1, s.nodes, s.orders, next, next_n, expansions, centers);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    Accumulator<T, Gradient> batch;
    for (int k = 0; k < n; ++k) {
      const Vec4<T> c = sh.center[buf][k];
      // Slots are 16-byte vectors: telling the compiler lets it load a slot with one instruction.
      const T* v =
          static_cast<const T*>(__builtin_assume_aligned(&sh.v[buf][k * kv], sizeof(Vec4<T>)));
      const int q = sh.order[buf][k];
      // c.w: 1 / the node's scale, by which its expansion is normalized (expansion_scale.hpp).
      if constexpr (Gradient)
        multipole::m2p_velocity_gradient<P>(v, x.x - c.x, x.y - c.y, x.z - c.z, batch, q, c.w);
      else
        multipole::m2p_velocity<P>(v, x.x - c.x, x.y - c.y, x.z - c.z, batch, q, c.w);
    }
    add_into<Gradient>(total, batch);
    __syncthreads();  // buffer `buf` is refilled by the next iteration's fetch
    first = next;
    n = next_n;
    buf ^= 1;
  }
  if (active) store_partial<Gradient>(total, s.partial, item.slot, blockDim.x, t);
}

// Float throughout is only a pair-sum measurement mode; the far field runs it as FloatTiles.
template <int P, class Fn>
decltype(auto) with_far_kernel(Arithmetic arithmetic, bool gradient, Fn&& fn) {
  return dispatch_gradient(gradient, [&](auto gr) {
    constexpr bool G = decltype(gr)::value;
    if (arithmetic == Arithmetic::Double) return fn(far_kernel<P, Arithmetic::Double, G>);
    return fn(far_kernel<P, Arithmetic::FloatTiles, G>);
  });
}

template <int P>
void launch_far_order(const FarSum& sum, cudaStream_t stream) {
  with_far_kernel<P>(sum.arithmetic, sum.gradient, [&](auto kernel) {
    kernel<<<sum.num_items, sum.block_threads, 0, stream>>>(sum);
    VORTEX_CUDA_CHECK_LAUNCH("far_kernel");
    return 0;
  });
}

template <int P>
int far_order_blocks(Arithmetic arithmetic, bool gradient, int block_threads) {
  return with_far_kernel<P>(arithmetic, gradient, [&](auto kernel) {
    int blocks = 0;
    VORTEX_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, 0));
    return blocks;
  });
}

}  // namespace vortex::gpu::detail

#define VORTEX_INSTANTIATE_FAR_ORDER(P)                                                \
  template void vortex::gpu::detail::launch_far_order<P>(const FarSum&, cudaStream_t); \
  template int vortex::gpu::detail::far_order_blocks<P>(Arithmetic, bool, int);
