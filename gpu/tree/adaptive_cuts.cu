// The adaptive cuts of a tree on the device, one depth a call (device_tree.hpp): each adaptive
// piece's extent along its cut and its points before and through the middle half of it
// (vortex/math/tree_node.hpp), then the depth's cuts at the positions the host placed.

#include <algorithm>
#include <cmath>
#include <vector>

#include "cuts.cuh"
#include "partition_cuts.cuh"
#include "reduce.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device_tree.hpp"

namespace vortex::gpu {
namespace detail {
namespace {

// The depth's layout as uploaded: one array of ints, these fields in this order.
struct LayoutView {
  const int *piece_begin, *piece_end, *piece_mid, *piece_first_chunk, *adaptive;
  const int *chunk_piece, *chunk_begin, *chunk_end;
};

// A depth's cuts over the layout (after the storage is attached).
void attach_layout(const LayoutView& l, int pieces, int chunks, DepthCuts& c) {
  c.piece_begin = l.piece_begin;
  c.piece_mid = l.piece_mid;
  c.piece_end = l.piece_end;
  c.piece_first_chunk = l.piece_first_chunk;
  c.num_pieces = pieces;
  c.chunk_piece = l.chunk_piece;
  c.chunk_begin = l.chunk_begin;
  c.chunk_end = l.chunk_end;
  c.num_chunks = chunks;
}

LayoutView view(const int* base, int pieces, int chunks) {
  LayoutView v;
  v.piece_begin = base;
  v.piece_end = base + pieces;
  v.piece_mid = base + 2 * pieces;
  v.piece_first_chunk = base + 3 * pieces;
  v.adaptive = base + 4 * pieces;
  v.chunk_piece = base + 5 * pieces;
  v.chunk_begin = v.chunk_piece + chunks;
  v.chunk_end = v.chunk_begin + chunks;
  return v;
}

// Per chunk of an adaptive piece: the least and greatest coordinate along the piece's cut, merged
// into the piece's by atomics on their ordered bits (exact, in any order). Not the cut moments'
// extent: theirs are of offsets from the piece's first point, rounded, and that point depends on
// the order the partitions left, which the host's differs from.
__global__ void adaptive_extent_kernel(const double* xyz, const std::uint32_t* perm, LayoutView l,
                                       const int* dim, unsigned long long* lo_bits,
                                       unsigned long long* hi_bits) {
  const int c = blockIdx.x, piece = l.chunk_piece[c];
  if (!l.adaptive[piece]) return;  // the whole block
  const int d = dim[piece];
  double lo = INFINITY, hi = -INFINITY;
  for (int i = l.chunk_begin[c] + threadIdx.x; i < l.chunk_end[c]; i += blockDim.x) {
    const double v = xyz[3 * static_cast<long long>(perm[i]) + d];
    lo = fmin(lo, v);
    hi = fmax(hi, v);
  }
  lo = block_reduce(lo, MinOp{});
  hi = block_reduce(hi, MaxOp{});
  if (threadIdx.x != 0) return;
  atomicMin(lo_bits + piece, order_bits(lo));
  atomicMax(hi_bits + piece, order_bits(hi));
}

// Per chunk of an adaptive piece: its points before the middle half of the piece's extent and
// those up to its end, added to the piece's counts (two a piece).
__global__ void adaptive_count_kernel(const double* xyz, const std::uint32_t* perm, LayoutView l,
                                      const int* dim, const unsigned long long* lo_bits,
                                      const unsigned long long* hi_bits,
                                      unsigned long long* counts) {
  const int c = blockIdx.x, piece = l.chunk_piece[c];
  if (!l.adaptive[piece]) return;
  const int d = dim[piece];
  double a, b;
  middle_half(from_order_bits(lo_bits[piece]), from_order_bits(hi_bits[piece]), a, b);
  double below = 0, through = 0;  // at most kTreeChunk a chunk: exact
  for (int i = l.chunk_begin[c] + threadIdx.x; i < l.chunk_end[c]; i += blockDim.x) {
    const double v = xyz[3 * static_cast<long long>(perm[i]) + d];
    below += v < a ? 1 : 0;
    through += v <= b ? 1 : 0;
  }
  below = block_reduce(below, SumOp{});
  through = block_reduce(through, SumOp{});
  if (threadIdx.x != 0) return;
  atomicAdd(counts + 2 * piece, static_cast<unsigned long long>(below));
  atomicAdd(counts + 2 * piece + 1, static_cast<unsigned long long>(through));
}

}  // namespace
}  // namespace detail

namespace {

int pieces_of(const AdaptiveDepth& a) {
  return static_cast<int>(a.piece_begin.size());
}
int chunks_of(const AdaptiveDepth& a) {
  return static_cast<int>(a.chunk_piece.size());
}

}  // namespace

void DeviceTree::measure_adaptive_depth(const AdaptiveDepth& a, cudaStream_t stream) {
  using namespace detail;
  const int pieces = pieces_of(a), chunks = chunks_of(a);
  adaptive_pieces_ = pieces;
  if (pieces == 0) return;
  // The layout, packed as LayoutView reads it (piece_mid follows in cut_adaptive_depth), staged in
  // pinned memory so that the copy is queued: the last one was done when its counts were read.
  const std::size_t size = 5 * static_cast<std::size_t>(pieces) + 3 * chunks;
  int* packed = adaptive_layout_host_.reserve(size);
  for (const std::vector<int>* v :
       {&a.piece_begin, &a.piece_end, &a.piece_begin, &a.piece_first_chunk, &a.adaptive,
        &a.chunk_piece, &a.chunk_begin, &a.chunk_end})
    packed = std::copy(v->begin(), v->end(), packed);
  adaptive_layout_.reserve(size);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(adaptive_layout_.data(), adaptive_layout_host_.data(),
                                    size * sizeof(int), cudaMemcpyHostToDevice, stream));
  const LayoutView l = view(adaptive_layout_.data(), pieces, chunks);
  chunk_moments_.reserve(kMoments * static_cast<std::size_t>(std::max(chunks, 1)));
  piece_dim_.reserve(pieces);
  piece_key_.reserve(3 * static_cast<std::size_t>(pieces));
  DepthCuts c;
  attach_storage(c);
  attach_layout(l, pieces, chunks, c);
  choose_cuts(c, chunk_moments_.data(), piece_dim_.data(), piece_key_.data(), stream);
  // Least coordinates (set to all ones), then greatest and the counts (zero), side by side.
  unsigned long long* lo = adaptive_extent_.reserve(4 * static_cast<std::size_t>(pieces));
  unsigned long long *hi = lo + pieces, *sums = hi + pieces;
  VORTEX_CUDA_CHECK(cudaMemsetAsync(lo, 0xff, pieces * sizeof(unsigned long long), stream));
  VORTEX_CUDA_CHECK(cudaMemsetAsync(hi, 0, 3 * pieces * sizeof(unsigned long long), stream));
  if (chunks > 0) {
    adaptive_extent_kernel<<<chunks, kReduceThreads, 0, stream>>>(c.xyz, c.perm_in, l,
                                                                  piece_dim_.data(), lo, hi);
    VORTEX_CUDA_CHECK_LAUNCH("adaptive_extent_kernel");
    adaptive_count_kernel<<<chunks, kReduceThreads, 0, stream>>>(c.xyz, c.perm_in, l,
                                                                 piece_dim_.data(), lo, hi, sums);
    VORTEX_CUDA_CHECK_LAUNCH("adaptive_count_kernel");
  }
  unsigned long long* host = adaptive_counts_host_.reserve(2 * static_cast<std::size_t>(pieces));
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(host, sums, 2 * pieces * sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost, stream));
}

void DeviceTree::adaptive_counts(cudaStream_t stream, std::vector<long long>& counts) {
  counts.assign(2 * static_cast<std::size_t>(adaptive_pieces_), 0);
  if (adaptive_pieces_ == 0) return;
  VORTEX_CUDA_CHECK(cudaStreamSynchronize(stream));
  const unsigned long long* host = adaptive_counts_host_.data();
  for (std::size_t k = 0; k < counts.size(); ++k) counts[k] = static_cast<long long>(host[k]);
}

void DeviceTree::cut_adaptive_depth(const AdaptiveDepth& a, cudaStream_t stream) {
  using namespace detail;
  const int pieces = pieces_of(a), chunks = chunks_of(a);
  if (pieces == 0) return;
  const LayoutView l = view(adaptive_layout_.data(), pieces, chunks);
  // Pinned as the layout: the last depth's copy was done when this depth's counts were read.
  int* mids = adaptive_mids_host_.reserve(pieces);
  std::copy(a.piece_mid.begin(), a.piece_mid.end(), mids);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(const_cast<int*>(l.piece_mid), mids, pieces * sizeof(int),
                                    cudaMemcpyHostToDevice, stream));
  // The selections leave the histograms zero (begin() clears them): only new ones are cleared.
  const std::size_t bins = static_cast<std::size_t>(pieces) * kSelectBins;
  if (histograms_.capacity() < bins) {
    histograms_.reserve(bins);
    VORTEX_CUDA_CHECK(cudaMemsetAsync(histograms_.data(), 0,
                                      histograms_.capacity() * sizeof(unsigned int), stream));
  }
  selected_.reserve(pieces);
  still_needed_.reserve(pieces);
  DepthCuts c;
  attach_storage(c);
  attach_layout(l, pieces, chunks, c);
  partition_cuts(c, stream);
  std::swap(perm_current_, perm_spare_);
}

}  // namespace vortex::gpu
