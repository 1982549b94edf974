#pragma once
// Flat records shared by the host planner and the kernels.

#include <cstdint>

#include "vortex/math/hd.hpp"
#include "vortex/math/index_range.hpp"

namespace vortex::gpu {

// Particle data in tree order, as the pair kernel reads it (math/pair_kernel.hpp): source
// positions as (x, y, z, 1/sigma^2), strengths as (Gx, Gy, Gz)/sigma^3 with 0, targets as
// (x, y, z, 0), box centers as (x, y, z, 0); positions relative to the packing origin.
template <class T>
struct alignas(4 * sizeof(T)) Vec4 {
  T x, y, z, w;
};

// A half-open range of particle indices (the record the interaction lists emit).
using Range = IndexRange;

// Targets [begin, begin + count) owned by one block, one thread each.
struct TargetGroup {
  int begin = 0, count = 0;
};

// One block's work: a target group against entries [entry_begin, entry_end) of a flat list (source
// ranges for pair sums, source nodes for multipole sums). Its sums go to partial slot `slot`.
struct WorkItem {
  int group = 0;
  int entry_begin = 0, entry_end = 0;
  int slot = 0;
};

// Launch order of work items: buckets of a quarter octave of cost, costliest first (bucket 0),
// floor(4 log2 cost) counted down from 255. Exact in integers and double comparisons, so that the
// host's planner and the device's give every cost the same bucket.
constexpr int kCostBuckets = 256;
VORTEX_HD int cost_bucket(long long cost) {
  if (cost <= 1) return kCostBuckets - 1;
  int k = 0;  // floor(log2 cost)
  while ((cost >> (k + 1)) != 0) ++k;
  const double c = static_cast<double>(cost), base = static_cast<double>(1ll << k);
  const int quarter = c >= base * 1.681792830507429    ? 3
                      : c >= base * 1.4142135623730951 ? 2
                      : c >= base * 1.189207115002721  ? 1
                                                       : 0;
  const int b = 4 * k + quarter;
  return kCostBuckets - 1 - (b < kCostBuckets - 1 ? b : kCostBuckets - 1);
}

// Arithmetic of the pair and multipole sums.
enum class Arithmetic {
  Double,      // double throughout
  FloatTiles,  // float within a tile of sources, tiles added in double
  Float,       // float throughout (kept to measure what the double accumulation costs)
};

// Accumulated components: velocity (3) and, with the gradient, du_a/dx_b (9).
constexpr int components(bool gradient) {
  return gradient ? 12 : 3;
}

}  // namespace vortex::gpu
