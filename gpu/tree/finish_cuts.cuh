#pragma once
// The last depths of a tree's cuts inside one block per piece (block_finish_depth in
// device_tree.hpp): each block cuts its piece through all later depths in shared memory, with the
// cuts of the depth-by-depth passes (cuts.cuh) and the same stable order, instead of a radix sort
// of all points per depth.

#include <cuda_runtime_api.h>

#include <cstdint>

#include "vortex/gpu/device_tree.hpp"

namespace vortex::gpu::detail {

constexpr int kFinishThreads = 512;
constexpr int kFinishItems = 8;  // points per thread
static_assert(kFinishThreads * kFinishItems == kFinishPoints, "a point per item");

// Device arrays of the shape, and the points interleaved (x, y, z of point j at 3 j).
struct FinishCuts {
  const double* xyz = nullptr;
  std::uint32_t* perm = nullptr;  // tree position -> point, rewritten in place
  const int* depth_start = nullptr;
  const int* piece_begin = nullptr;
  const int* piece_end = nullptr;
  const int* piece_first_chunk = nullptr;  // < 0: the piece is not cut at its depth
  int first_depth = 0, depths = 0;
  int num_blocks = 0;  // the pieces of first_depth
};
void launch_finish_cuts(const FinishCuts& f, cudaStream_t stream);

}  // namespace vortex::gpu::detail
