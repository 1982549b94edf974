// One depth of a tree's cuts: the cut dimensions, radix selection and stable partition
// (partition_cuts.cuh).

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_scan.cuh>

#include "cuts.cuh"
#include "partition_cuts.cuh"
#include "reduce.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device_tree.hpp"

namespace vortex::gpu::detail {
namespace {

constexpr int kThreads = 256;
constexpr int kMomentThreads = kReduceThreads;

// Per chunk of a cut piece: moments of the offsets from the piece's first point (offsets, not
// coordinates, so that clouds far from the origin do not cancel; as the host builder). 256 threads
// a chunk: 1024 (four points each) took 33 us a depth at 1e6 against 24 us.
// The points are read from `xyz`, their coordinates side by side (x, y, z of point j at 3 j): the
// gather through the permutation then touches one or two memory sectors per point, not three.
__global__ void __launch_bounds__(kMomentThreads)
    cut_moments_kernel(const double* xyz, const std::uint32_t* perm, const int* piece_begin,
                       const int* chunk_piece, const int* chunk_begin, const int* chunk_end,
                       int first_chunk, double* moments) {
  const int c = first_chunk + blockIdx.x;
  const double* r = xyz + 3 * static_cast<long long>(perm[piece_begin[chunk_piece[c]]]);
  double m[kMoments];
  moments_reset(m);
  for (int i = chunk_begin[c] + threadIdx.x; i < chunk_end[c]; i += blockDim.x)
    moments_add_point(m, xyz + 3 * static_cast<long long>(perm[i]), r);
  double out[kMoments];
  for (int k = 0; k < 3; ++k) {
    out[k] = block_reduce<kMomentThreads>(m[k], SumOp{});
    out[3 + k] = block_reduce<kMomentThreads>(m[3 + k], SumOp{});
    out[6 + k] = block_reduce<kMomentThreads>(m[6 + k], MinOp{});
    out[9 + k] = block_reduce<kMomentThreads>(m[9 + k], MaxOp{});
  }
  if (threadIdx.x == 0)
    for (int k = 0; k < kMoments; ++k) moments[static_cast<long long>(c) * kMoments + k] = out[k];
}

// Per piece of a depth, one warp: the cut dimension (largest variance; -1 for an uncut piece) and
// the key's reference, minimum and scale along it. The lanes merge the piece's chunks in a fixed
// order (strided, then a shuffle tree): the same on every run.
__global__ void choose_cuts_kernel(const double* xyz, const std::uint32_t* perm,
                                   const int* piece_begin, const int* piece_end,
                                   const int* piece_first_chunk, int first_piece, int num_pieces,
                                   const double* moments, int* dim_out, double* key_out) {
  const int k = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  const int lane = threadIdx.x % kWarp;
  if (k >= num_pieces) return;  // whole warps leave together
  const int piece = first_piece + k;
  const int first = piece_first_chunk[piece];
  if (first < 0) {
    if (lane == 0) dim_out[k] = -1;
    return;
  }
  const int n = piece_end[piece] - piece_begin[piece];
  const int chunks = (n + kTreeChunk - 1) / kTreeChunk;
  double m[kMoments];
  moments_reset(m);
  for (int c = lane; c < chunks; c += kWarp)
    moments_add(m, moments + static_cast<long long>(first + c) * kMoments);
  moments_warp_merge(m);
  if (lane != 0) return;
  const Cut cut =
      choose_cut(m, n, xyz + 3 * static_cast<long long>(perm[piece_begin[piece]]), kCutKeyBits);
  dim_out[k] = cut.dim;
  key_out[3 * k + 0] = cut.ref;
  key_out[3 * k + 1] = cut.lo;
  key_out[3 * k + 2] = cut.scale;
}

constexpr int kBinsPerThread = kSelectBins / kThreads;
static_assert(kBinsPerThread * kThreads == kSelectBins, "whole bins per thread");
// The histograms' blocks: four points of a chunk a thread, whose loads (gathers through the
// permutation in round 0) wait on each other (with 256 threads, 0.71 ms for 48 launches at 1e6
// against 0.46 ms).
constexpr int kHistogramThreads = 1024;

// The lowest bit of round r's digit, and its width.
__host__ __device__ constexpr int digit_shift(int round) {
  return 32 - kSelectBits * (round + 1) > 0 ? 32 - kSelectBits * (round + 1) : 0;
}
__host__ __device__ constexpr int digit_width(int round) {
  return (round == 0 ? 32 : digit_shift(round - 1)) - digit_shift(round);
}
static_assert(kCutKeyBits == 32 && digit_shift(kSelectRounds - 1) == 0, "the rounds reach bit 0");
static_assert(digit_width(kSelectRounds - 1) > 0 && digit_width(0) == kSelectBits, "digits");

// Round r's histogram, one block per chunk of a cut piece: the digit of every point whose higher
// digits are the ones selected so far. Round 0 computes the keys first.
__global__ void __launch_bounds__(kHistogramThreads)
    select_histogram_kernel(DepthCuts c, int round) {
  __shared__ unsigned int bins[kSelectBins];
  for (int b = threadIdx.x; b < kSelectBins; b += blockDim.x) bins[b] = 0;
  const int chunk = c.first_chunk + blockIdx.x;
  const int piece = c.chunk_piece[chunk] - c.first_piece;
  const int shift = digit_shift(round), above = shift + digit_width(round);
  const unsigned int mask = (1u << digit_width(round)) - 1;
  const std::uint32_t chosen = round > 0 ? c.selected[piece] >> above : 0;
  Cut cut;
  if (round == 0)
    cut = Cut{c.dim[piece], c.key[3 * piece], c.key[3 * piece + 1], c.key[3 * piece + 2]};
  __syncthreads();
  for (int i = c.chunk_begin[chunk] + threadIdx.x; i < c.chunk_end[chunk]; i += blockDim.x) {
    std::uint32_t q;
    if (round == 0) {
      q = static_cast<std::uint32_t>(
          cut_key(cut, c.xyz + 3 * static_cast<long long>(c.perm_in[i]), kCutKeyBits));
      c.keys[i] = q;
    } else {
      q = c.keys[i];
      if ((q >> above) != chosen) continue;
    }
    atomicAdd(&bins[(q >> shift) & mask], 1u);
  }
  __syncthreads();
  unsigned int* out = c.histograms + static_cast<long long>(piece) * kSelectBins;
  for (int b = threadIdx.x; b < kSelectBins; b += blockDim.x)
    if (bins[b]) atomicAdd(out + b, bins[b]);
}

// Round r's digit of each cut piece, one block per piece: the bin in which the rank still needed
// falls (ranks from 0: the cut's position less the piece's begin, in round 0). Clears the bins.
__global__ void select_digit_kernel(DepthCuts c, int round) {
  using Scan = cub::BlockScan<unsigned int, kThreads>;
  __shared__ typename Scan::TempStorage scan;
  const int piece = blockIdx.x;
  if (c.dim[piece] < 0) return;  // the whole block: uncut pieces have no histogram
  const int p = c.first_piece + piece;
  const unsigned int need = round == 0
                                ? static_cast<unsigned int>(c.piece_mid[p] - c.piece_begin[p])
                                : static_cast<unsigned int>(c.still_needed[piece]);
  unsigned int* bins = c.histograms + static_cast<long long>(piece) * kSelectBins;
  unsigned int local[kBinsPerThread], sum = 0;
  for (int k = 0; k < kBinsPerThread; ++k) {
    local[k] = bins[threadIdx.x * kBinsPerThread + k];
    bins[threadIdx.x * kBinsPerThread + k] = 0;
    sum += local[k];
  }
  unsigned int before = 0;
  Scan(scan).ExclusiveSum(sum, before);
  if (need < before || need >= before + sum) return;  // one thread holds the rank
  for (int k = 0; k < kBinsPerThread; ++k) {
    if (need < before + local[k]) {
      const unsigned int digit = threadIdx.x * kBinsPerThread + k;
      const std::uint32_t chosen = round > 0 ? c.selected[piece] : 0;
      c.selected[piece] = chosen | (digit << digit_shift(round));
      c.still_needed[piece] = static_cast<int>(need - before);
      return;
    }
    before += local[k];
  }
}

// Per position: 2^32 if its point goes left as one below the selected key (every point of an
// uncut piece, which keeps its place), 1 if it equals the selected key, 0 above it. Read by the
// scan as it goes, so the flags take no memory.
struct PartitionFlag {
  DepthCuts c;
  __device__ unsigned long long operator()(int i) const {
    const int piece = piece_at(c.piece_begin + c.first_piece, c.num_pieces, i);
    if (c.dim[piece] < 0) return 1ull << 32;
    const std::uint32_t q = c.keys[i], v = c.selected[piece];
    return q < v ? 1ull << 32 : (q == v ? 1ull : 0ull);
  }
};

auto partition_flags(const DepthCuts& c) {
  return thrust::make_transform_iterator(thrust::counting_iterator<int>(0), PartitionFlag{c});
}

// Moves each point to its side: the left takes those below the selected key and the first
// `still_needed` equal to it, the right the others, both in their order. The inclusive sums of
// the flags count, before each position, the points below (high word) and equal (low word).
__global__ void partition_scatter_kernel(DepthCuts c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= c.n) return;
  const int piece = piece_at(c.piece_begin + c.first_piece, c.num_pieces, i);
  const int p = c.first_piece + piece, begin = c.piece_begin[p];
  int to = i;
  if (c.dim[piece] >= 0) {
    const unsigned long long sum = c.flag_sums[i], previous = i > 0 ? c.flag_sums[i - 1] : 0;
    const unsigned long long base = begin > 0 ? c.flag_sums[begin - 1] : 0;
    const unsigned long long flag = sum - previous, counts = previous - base;
    const long long below = static_cast<long long>(counts >> 32);
    const long long equal = static_cast<long long>(counts & 0xffffffffull);
    const long long need = c.still_needed[piece];
    const long long left = below + (equal < need ? equal : need);
    const bool goes_left = (flag >> 32) != 0 || (flag != 0 && equal < need);
    to = goes_left ? static_cast<int>(begin + left)
                   : static_cast<int>(c.piece_mid[p] + (i - begin - left));
  }
  c.perm_out[to] = c.perm_in[i];
}

}  // namespace

std::size_t partition_scan_bytes(int n) {
  std::size_t bytes = 0;
  // Sized for the same input as partition_cuts' scan.
  VORTEX_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, partition_flags(DepthCuts{}),
                                                  static_cast<unsigned long long*>(nullptr), n));
  return bytes;
}

void choose_cuts(const DepthCuts& c, double* moments, int* dim, double* key, cudaStream_t stream) {
  if (c.num_chunks > 0) {
    cut_moments_kernel<<<c.num_chunks, kMomentThreads, 0, stream>>>(
        c.xyz, c.perm_in, c.piece_begin, c.chunk_piece, c.chunk_begin, c.chunk_end, c.first_chunk,
        moments);
    VORTEX_CUDA_CHECK_LAUNCH("cut_moments_kernel");
  }
  if (c.num_pieces == 0) return;
  choose_cuts_kernel<<<blocks_for(static_cast<long long>(c.num_pieces) * kWarp, 128), 128, 0,
                       stream>>>(c.xyz, c.perm_in, c.piece_begin, c.piece_end, c.piece_first_chunk,
                                 c.first_piece, c.num_pieces, moments, dim, key);
  VORTEX_CUDA_CHECK_LAUNCH("choose_cuts_kernel");
}

void partition_cuts(const DepthCuts& c, cudaStream_t stream) {
  if (c.n == 0) return;
  if (c.num_chunks > 0) {
    for (int round = 0; round < kSelectRounds; ++round) {
      select_histogram_kernel<<<c.num_chunks, kHistogramThreads, 0, stream>>>(c, round);
      VORTEX_CUDA_CHECK_LAUNCH("select_histogram_kernel");
      select_digit_kernel<<<c.num_pieces, kThreads, 0, stream>>>(c, round);
      VORTEX_CUDA_CHECK_LAUNCH("select_digit_kernel");
    }
  }
  std::size_t bytes = c.scan_temp_bytes;
  VORTEX_CUDA_CHECK(cub::DeviceScan::InclusiveSum(c.scan_temp, bytes, partition_flags(c),
                                                  c.flag_sums, c.n, stream));
  partition_scatter_kernel<<<blocks_for(c.n, kThreads), kThreads, 0, stream>>>(c);
  VORTEX_CUDA_CHECK_LAUNCH("partition_scatter_kernel");
}

}  // namespace vortex::gpu::detail
