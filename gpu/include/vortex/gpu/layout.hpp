#pragma once
// Flat records shared by the host planner and the kernels.

#include <cstdint>

namespace vortex::gpu {

// Particle data in tree order: positions as (x, y, z, 1/sigma), strengths as (Gx, Gy, Gz, 0),
// targets as (x, y, z, 0), box centers as (x, y, z, 0).
template <class T>
struct alignas(4 * sizeof(T)) Vec4 {
  T x, y, z, w;
};

// A half-open range of particle indices.
struct Range {
  int begin = 0, end = 0;
  int size() const { return end - begin; }
};

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
