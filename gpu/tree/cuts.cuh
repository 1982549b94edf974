#pragma once
// The cut of one piece of a tree under construction, shared by the depth-by-depth passes
// (device_tree.cu, partition_cuts.cu) and the blocks that finish small pieces (finish_cuts.cu): the
// moments of the points' offsets from the piece's first point, the dimension of largest spread,
// and the sort key along it; and the launches' grid size.

#include <cstdint>

#include "vortex/math/tree_node.hpp"

namespace vortex::gpu::detail {

constexpr int kWarp = 32;

// Blocks of `threads` that cover n items.
inline int blocks_for(long long n, int threads) {
  return static_cast<int>((n + threads - 1) / threads);
}

// Bits of the quantized coordinate along a cut (cut_key): points closer than 2^-32 of their
// piece's extent are ties, which keep their order.
constexpr int kCutKeyBits = 32;
// Sums, sums of squares, minima and maxima of the offsets (x, y, z).
constexpr int kMoments = 12;

__device__ inline void moments_reset(double m[kMoments]) {
  for (int j = 0; j < 3; ++j) m[j] = 0, m[3 + j] = 0, m[6 + j] = 1e300, m[9 + j] = -1e300;
}

// Adds the point at `q` (x, y, z side by side), offset from the piece's first point `r`.
__device__ inline void moments_add_point(double m[kMoments], const double* q, const double* r) {
  for (int k = 0; k < 3; ++k) {
    const double d = q[k] - r[k];
    m[k] += d;
    m[3 + k] += d * d;
    m[6 + k] = fmin(m[6 + k], d);
    m[9 + k] = fmax(m[9 + k], d);
  }
}

// Adds the moments `q` of other points of the same piece.
__device__ inline void moments_add(double m[kMoments], const double* q) {
  for (int j = 0; j < 3; ++j) {
    m[j] += q[j];
    m[3 + j] += q[3 + j];
    m[6 + j] = fmin(m[6 + j], q[6 + j]);
    m[9 + j] = fmax(m[9 + j], q[9 + j]);
  }
}

// Merges the lanes' moments in a fixed order (a shuffle tree): the result, in lane 0, is the same
// on every run.
__device__ inline void moments_warp_merge(double m[kMoments]) {
  for (int j = 0; j < kMoments; ++j)
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      const double o = __shfl_down_sync(0xffffffffu, m[j], offset);
      m[j] = j < 6 ? m[j] + o : (j < 9 ? fmin(m[j], o) : fmax(m[j], o));
    }
}

// The last of `count` ascending piece begins at or before position i (the first if none).
__device__ inline int piece_at(const int* begin, int count, int i) {
  int lo = 0, hi = count - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (begin[mid] <= i)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// The cut of a piece of `n` points: the dimension of largest variance and the key's reference (the
// first point's coordinate along it), minimum offset and scale onto [0, 2^key_bits - 1].
struct Cut {
  int dim = -1;  // -1: the piece is not cut
  double ref = 0, lo = 0, scale = 0;
};

__device__ inline Cut choose_cut(const double m[kMoments], int n, const double* first_point,
                                 int key_bits) {
  Cut c;
  double spread[3];
  for (int j = 0; j < 3; ++j) spread[j] = m[3 + j] - m[j] * m[j] / n;  // n times the variance
  c.dim = widest_spread(spread);
  const double width = m[9 + c.dim] - m[6 + c.dim];
  const double top = static_cast<double>((1ull << key_bits) - 1);
  c.ref = first_point[c.dim];
  c.lo = m[6 + c.dim];
  c.scale = width > 0 ? top / width : 0.0;
  return c;
}

// The quantized coordinate of a point along the cut: monotone, so that sorting by it puts the
// smallest coordinates of the piece on its left (0 in a piece that is not cut).
__device__ inline std::uint64_t cut_key(const Cut& c, const double* point, int key_bits) {
  if (c.dim < 0) return 0;
  const double offset = point[c.dim] - c.ref;
  const double scaled = (offset - c.lo) * c.scale;
  const std::uint64_t top = (1ull << key_bits) - 1;
  return scaled <= 0 ? 0 : (scaled >= static_cast<double>(top) ? top : std::uint64_t(scaled));
}

}  // namespace vortex::gpu::detail
