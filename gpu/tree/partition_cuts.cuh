#pragma once
// One depth of a tree's cuts over all its pieces at once (device_tree.hpp): every cut piece's
// points get their quantized coordinate along the cut (cuts.cuh), a radix selection finds the
// coordinate at the cut's position (three rounds of 11, 11 and 10 bits: a histogram of each cut
// piece's points that share the digits chosen so far, then the digit where the position falls),
// and a stable partition moves the points below it, and the first of those equal to it, to the
// piece's left. The left side holds exactly the points a stable sort by coordinate would put there,
// in the order they had, at the cost of a few passes over 4- and 8-byte arrays instead of a sort.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace vortex::gpu::detail {

constexpr int kSelectBits = 11;  // digits of the selection, most significant first
constexpr int kSelectBins = 1 << kSelectBits;
constexpr int kSelectRounds = 3;  // 11 + 11 + 10 = the 32 bits of cut_key

struct DepthCuts {
  int n = 0;
  const double* xyz = nullptr;             // points interleaved (x, y, z of point j at 3 j)
  const std::uint32_t* perm_in = nullptr;  // tree position -> point, before this depth
  std::uint32_t* perm_out = nullptr;       // ... and after it
  // The shape's pieces of this depth, [first_piece, first_piece + num_pieces), and the chunks of
  // its cut pieces, [first_chunk, first_chunk + num_chunks).
  const int *piece_begin = nullptr, *piece_mid = nullptr, *piece_end = nullptr;
  const int* piece_first_chunk = nullptr;  // per piece: its first chunk, -1 when it is not cut
  int first_piece = 0, num_pieces = 0;
  const int *chunk_piece = nullptr, *chunk_begin = nullptr, *chunk_end = nullptr;
  int first_chunk = 0, num_chunks = 0;
  // Each piece's cut (by its index in this depth): dimension (< 0: not cut), reference, minimum,
  // scale (choose_cut).
  const int* dim = nullptr;
  const double* key = nullptr;
  // Storage: the points' keys (n), the inclusive sums of their flags (n), histograms
  // (kSelectBins per piece, zero on entry and left zero), each piece's selected key and the rank
  // still needed among the points equal to it, and the scan's temporary storage.
  std::uint32_t* keys = nullptr;
  unsigned long long* flag_sums = nullptr;
  unsigned int* histograms = nullptr;
  unsigned int* selected = nullptr;
  int* still_needed = nullptr;
  void* scan_temp = nullptr;
  std::size_t scan_temp_bytes = 0;
};

// Each piece's cut (choose_cut): per chunk the moments of its points (kMoments doubles a chunk of
// `moments`), then per piece of the depth its dimension and key (3 doubles a piece).
void choose_cuts(const DepthCuts& c, double* moments, int* dim, double* key, cudaStream_t stream);
// Bytes of temporary storage the partition's scan of n points needs.
std::size_t partition_scan_bytes(int n);
// Partitions every cut piece of the depth about its cut; on `stream`, nothing waits for the host.
void partition_cuts(const DepthCuts& c, cudaStream_t stream);

}  // namespace vortex::gpu::detail
