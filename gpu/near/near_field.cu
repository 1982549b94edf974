// Regularized Biot-Savart pair sums: the direct method and the near field of the treecode.
//
// One block per work item, one thread per target of the item's group. The item's source ranges
// are streamed through shared memory one tile (blockDim sources) at a time; the next tile is
// loaded into registers while the current one is summed, so global-memory latency hides behind
// arithmetic. Each tile is summed in the pair arithmetic T and added to the running sum S.

#include "runtime/accumulate.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/launch.hpp"
#include "vortex/math/pair_kernel.hpp"

namespace vortex::gpu {
namespace {

using detail::Accumulator;
using detail::Types;

template <Core C, Arithmetic A, bool Gradient>
__global__ void pair_kernel(PairSum s) {
  using T = typename Types<A>::T;
  using S = typename Types<A>::S;
  extern __shared__ __align__(32) unsigned char shared[];
  Vec4<T>* sp = reinterpret_cast<Vec4<T>*>(shared);
  Vec4<T>* sg = sp + blockDim.x;
  const auto* position = static_cast<const Vec4<T>*>(s.source_position);
  const auto* strength = static_cast<const Vec4<T>*>(s.source_strength);

  const int b = blockDim.x;
  const int t = threadIdx.x;
  const WorkItem item = s.items[blockIdx.x];
  const TargetGroup g = s.groups[item.group];
  const bool active = t < g.count;
  const Vec4<T> x = static_cast<const Vec4<T>*>(s.targets)[g.begin + (active ? t : 0)];

  // Tile cursor: entry e, first source `base` of the tile, `count` sources in it.
  int e = item.entry_begin;
  Range r = s.ranges[e];
  int base = r.begin;
  int count = min(b, r.end - base);
  Vec4<T> next_p{}, next_g{};
  if (t < count) {
    next_p = position[base + t];
    next_g = strength[base + t];
  }

  Accumulator<S, Gradient> total;
  while (count > 0) {
    if (t < count) {
      sp[t] = next_p;
      sg[t] = next_g;
    }
    __syncthreads();
    const int n = count;
    base += b;
    if (base >= r.end) {
      ++e;
      if (e < item.entry_end) {
        r = s.ranges[e];
        base = r.begin;
      }
    }
    count = e < item.entry_end ? min(b, r.end - base) : 0;
    if (t < count) {
      next_p = position[base + t];
      next_g = strength[base + t];
    }

    Accumulator<T, Gradient> tile;
#pragma unroll 4
    for (int j = 0; j < n; ++j) {
      const Vec4<T> p = sp[j];
      const Vec4<T> q = sg[j];
      if constexpr (Gradient)
        add_pair_velocity_gradient<C>(x.x - p.x, x.y - p.y, x.z - p.z, q.x, q.y, q.z, p.w,
                                      SourceAtTarget<T>{x.w, q.w}, tile);
      else
        add_pair_velocity<C>(x.x - p.x, x.y - p.y, x.z - p.z, q.x, q.y, q.z, p.w,
                             SourceAtTarget<T>{x.w, q.w}, tile);
    }
    detail::add_into<Gradient>(total, tile);
    __syncthreads();
  }
  if (active) detail::store_partial<Gradient>(total, s.partial, item.slot, b, t);
}

template <class Fn>
decltype(auto) with_pair_kernel(Core core, Arithmetic arithmetic, bool gradient, Fn&& fn) {
  return dispatch_core(core, [&](auto c) {
    return detail::dispatch_arithmetic(arithmetic, [&](auto a) {
      return detail::dispatch_gradient(gradient, [&](auto gr) {
        return fn(pair_kernel<decltype(c)::value, decltype(a)::value, decltype(gr)::value>);
      });
    });
  });
}

std::size_t pair_shared_bytes(Arithmetic arithmetic, int block_threads) {
  const std::size_t v =
      arithmetic == Arithmetic::Double ? sizeof(Vec4<double>) : sizeof(Vec4<float>);
  return 2 * v * block_threads;
}

}  // namespace

void launch_pair_sum(const PairSum& sum, cudaStream_t stream) {
  if (sum.num_items == 0) return;
  const std::size_t shared = pair_shared_bytes(sum.arithmetic, sum.block_threads);
  with_pair_kernel(sum.core, sum.arithmetic, sum.gradient, [&](auto kernel) {
    kernel<<<sum.num_items, sum.block_threads, shared, stream>>>(sum);
    VORTEX_CUDA_CHECK_LAUNCH("pair_kernel");
    return 0;
  });
}

int pair_sum_blocks_per_multiprocessor(Core core, Arithmetic arithmetic, bool gradient,
                                       int block_threads) {
  const std::size_t shared = pair_shared_bytes(arithmetic, block_threads);
  return with_pair_kernel(core, arithmetic, gradient, [&](auto kernel) {
    int blocks = 0;
    VORTEX_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, shared));
    return blocks;
  });
}

}  // namespace vortex::gpu
