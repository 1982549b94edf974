// The last depths of a tree's cuts, one block per piece (finish_cuts.cuh).

#include <cub/block/block_radix_sort.cuh>

#include <algorithm>
#include <vector>

#include "cuts.cuh"
#include "finish_cuts.cuh"
#include "vortex/gpu/check.hpp"

namespace vortex::gpu::detail {
namespace {

constexpr int kWarps = kFinishThreads / kWarp;

// Four bits a pass (cub's default): six, with fewer passes, took 1.24 ms against 0.76 ms at 1e6
// for both trees (more ranking counters, registers spilled).
using FinishSort = cub::BlockRadixSort<std::uint64_t, kFinishThreads, kFinishItems, std::uint32_t>;

struct FinishShared {
  typename FinishSort::TempStorage sort;
  std::uint32_t perm[kFinishPoints];  // the block's piece, in its current order
  int begin[kFinishPieces + 1];       // this depth's pieces inside it (offsets), then its size
  Cut cut[kFinishPieces];
  double partial[kWarps][kMoments];  // moments of parts of pieces, when warps share a piece
  int first, count;                  // this depth's first piece inside the block, their number
};
static_assert(2 * sizeof(FinishShared) <= 227 * 1024, "two blocks on a multiprocessor");

__device__ int first_piece_at_or_after(const int* piece_begin, int lo, int hi, int position) {
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (piece_begin[mid] < position)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Piece k's cut from the partial moments that `parts` warps left for it, merged in a fixed order.
__device__ __forceinline__ void merge_partial_moments(const FinishCuts& f, FinishShared& sh, int k,
                                                      int parts) {
  double m[kMoments];
  moments_reset(m);
  for (int part = 0; part < parts; ++part) moments_add(m, sh.partial[k * parts + part]);
  const int b = sh.begin[k], e = sh.begin[k + 1];
  sh.cut[k] = choose_cut(m, e - b, f.xyz + 3 * static_cast<long long>(sh.perm[b]), kCutKeyBits);
}

__global__ void __launch_bounds__(kFinishThreads, 2) finish_cuts_kernel(FinishCuts f) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  FinishShared& sh = *reinterpret_cast<FinishShared*>(shared_bytes);
  const int tid = threadIdx.x, warp = tid / kWarp, lane = tid % kWarp;
  const int piece = f.depth_start[f.first_depth] + blockIdx.x;
  const int base = f.piece_begin[piece], n = f.piece_end[piece] - base;
  for (int i = tid; i < n; i += kFinishThreads) sh.perm[i] = f.perm[base + i];
  for (int d = f.first_depth; d < f.depths; ++d) {
    if (tid == 0) {
      const int lo = f.depth_start[d], hi = f.depth_start[d + 1];
      sh.first = first_piece_at_or_after(f.piece_begin, lo, hi, base);
      sh.count = first_piece_at_or_after(f.piece_begin, lo, hi, base + n) - sh.first;
    }
    __syncthreads();
    const int np = sh.count;
    for (int k = tid; k < np; k += kFinishThreads) {
      Cut c;
      c.dim = f.piece_first_chunk[sh.first + k] >= 0 ? 0 : -1;  // 0: to be chosen below
      sh.cut[k] = c;
      sh.begin[k] = f.piece_begin[sh.first + k] - base;
    }
    if (tid == 0) sh.begin[np] = n;
    __syncthreads();
    // Moments of each cut piece: a warp per piece, or with fewer pieces than warps, `parts` warps
    // per piece whose partial moments one thread merges in a fixed order.
    const int parts = np < kWarps ? kWarps / np : 1;
    for (int a = warp; a < np * parts; a += kWarps) {
      const int k = a / parts, part = a % parts;
      if (sh.cut[k].dim < 0) continue;  // the whole warp
      const int b = sh.begin[k], e = sh.begin[k + 1];
      const double* r = f.xyz + 3 * static_cast<long long>(sh.perm[b]);
      double m[kMoments];
      moments_reset(m);
      for (int i = b + part * kWarp + lane; i < e; i += parts * kWarp)
        moments_add_point(m, f.xyz + 3 * static_cast<long long>(sh.perm[i]), r);
      moments_warp_merge(m);
      if (lane == 0) {
        if (parts == 1)
          sh.cut[k] = choose_cut(m, e - b, r, kCutKeyBits);
        else
          for (int j = 0; j < kMoments; ++j) sh.partial[a][j] = m[j];
      }
    }
    __syncthreads();
    if (parts > 1) {
      if (tid < np && sh.cut[tid].dim >= 0) merge_partial_moments(f, sh, tid, parts);
      __syncthreads();
    }
    // Keys: the piece inside the block, then the quantized coordinate; points past the piece's
    // end sort last. The block's radix sort is stable, as the depth-by-depth one.
    std::uint64_t keys[kFinishItems];
    std::uint32_t values[kFinishItems];
    for (int j = 0; j < kFinishItems; ++j) {
      const int i = tid * kFinishItems + j;
      if (i < n) {
        const int lo = piece_at(sh.begin, np, i);
        values[j] = sh.perm[i];
        keys[j] = (static_cast<std::uint64_t>(lo) << kCutKeyBits) |
                  cut_key(sh.cut[lo], f.xyz + 3 * static_cast<long long>(values[j]), kCutKeyBits);
      } else {
        keys[j] = ~0ull;
        values[j] = 0;
      }
    }
    int piece_bits = 0;
    while ((1 << piece_bits) < np) ++piece_bits;
    FinishSort(sh.sort).Sort(keys, values, 0, kCutKeyBits + piece_bits);
    for (int j = 0; j < kFinishItems; ++j) {
      const int i = tid * kFinishItems + j;
      if (i < n) sh.perm[i] = values[j];
    }
    __syncthreads();
  }
  for (int i = tid; i < n; i += kFinishThreads) f.perm[base + i] = sh.perm[i];
}

}  // namespace

}  // namespace vortex::gpu::detail

namespace vortex::gpu {

int block_finish_depth(const TreeShape& shape, int max_points) {
  const std::vector<int>&start = shape.depth_start, &begin = shape.piece_begin,
        &end = shape.piece_end;
  const int depths = shape.depths();
  max_points = std::min(max_points, kFinishPoints);
  for (int d = 0; d < depths; ++d) {
    int largest = 0;
    for (int k = start[d]; k < start[d + 1]; ++k) largest = std::max(largest, end[k] - begin[k]);
    if (largest > max_points) continue;
    bool fits = true;
    for (int e = d + 1; e < depths && fits; ++e) {
      int j = start[e];
      for (int k = start[d]; k < start[d + 1] && fits; ++k) {
        int count = 0;
        for (; j < start[e + 1] && begin[j] < end[k]; ++j) ++count;
        fits = count <= kFinishPieces;
      }
    }
    if (fits) return d;
  }
  return depths;
}

}  // namespace vortex::gpu

namespace vortex::gpu::detail {

void launch_finish_cuts(const FinishCuts& f, cudaStream_t stream) {
  if (f.num_blocks == 0 || f.first_depth >= f.depths) return;
  constexpr int bytes = static_cast<int>(sizeof(FinishShared));
  VORTEX_CUDA_CHECK(
      cudaFuncSetAttribute(finish_cuts_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  finish_cuts_kernel<<<f.num_blocks, kFinishThreads, bytes, stream>>>(f);
  VORTEX_CUDA_CHECK_LAUNCH("finish_cuts_kernel");
}

}  // namespace vortex::gpu::detail
