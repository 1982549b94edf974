#pragma once
// Launchers of the CUDA kernels. Arrays are device pointers; particle arrays hold Vec4<float> or
// Vec4<double> according to the arithmetic (double for Arithmetic::Double, float otherwise).
//
// Each work item (one block) writes its sums, without the 1/(4 pi) factor, to its partial slot:
// partial[(slot * components + c) * block_threads + t] for the t-th target of its group.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "vortex/gpu/layout.hpp"
#include "vortex/math/core_function.hpp"

namespace vortex::gpu {

// Regularized pair sums (the direct method and the near field).
struct PairSum {
  Core core = Core::Exponential;
  Arithmetic arithmetic = Arithmetic::FloatTiles;
  bool gradient = true;
  int block_threads = 64;                 // also the tile of sources staged in shared memory
  const void* targets = nullptr;          // Vec4: x, y, z, point_key
  const void* source_position = nullptr;  // Vec4: x, y, z, 1/sigma^2
  const void* source_strength = nullptr;  // Vec4: (Gx, Gy, Gz)/sigma^3, point_key
  const TargetGroup* groups = nullptr;
  const WorkItem* items = nullptr;
  int num_items = 0;
  const Range* ranges = nullptr;  // entries of the items
  double* partial = nullptr;
};
void launch_pair_sum(const PairSum& sum, cudaStream_t stream);
// Blocks of launch_pair_sum that fit on one multiprocessor at once.
int pair_sum_blocks_per_multiprocessor(Core core, Arithmetic arithmetic, bool gradient,
                                       int block_threads);

// Multipole (far-field) sums: M2P of the source nodes of each item's entries.
struct FarSum {
  int order = 8;
  Arithmetic arithmetic = Arithmetic::FloatTiles;
  bool gradient = true;
  int block_threads = 64;
  const void* targets = nullptr;     // Vec4: x, y, z, point_key (unread)
  const void* centers = nullptr;     // Vec4 per source node: expansion center
  const void* multipoles = nullptr;  // float or double, 3 (p+1)^2 per source node, node-major
  const TargetGroup* groups = nullptr;
  const WorkItem* items = nullptr;
  int num_items = 0;
  const int* nodes = nullptr;             // entries of the items
  const unsigned char* orders = nullptr;  // each entry's order, 1..order (far_order)
  double* partial = nullptr;
};
void launch_far_sum(const FarSum& sum, cudaStream_t stream);
int far_sum_blocks_per_multiprocessor(int order, Arithmetic arithmetic, bool gradient,
                                      int block_threads);
// Largest multipole order the far kernel is built for.
int max_far_order();

// Adds the partial slots of every group in slot order, scales by `scale` and writes component c of
// target i to out[c * out_stride + i], or to out[c * out_stride + order[i]] with an order (the
// targets' tree permutation, so that the results land in the caller's order).
struct Combine {
  bool gradient = true;
  int block_threads = 64;
  const TargetGroup* groups = nullptr;
  int num_groups = 0;
  const int* group_slots = nullptr;  // size num_groups + 1
  const double* partial = nullptr;
  double scale = 1;
  double* out = nullptr;
  std::size_t out_stride = 0;
  const std::uint32_t* order = nullptr;
};
void launch_combine(const Combine& combine, cudaStream_t stream);

}  // namespace vortex::gpu
