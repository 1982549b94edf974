#pragma once
// Launchers of the treecode's stages that run on the device after the trees (device_tree.hpp):
// packing the particles for the sums, the upward pass and the interaction lists. Arrays are device
// pointers unless said otherwise.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/layout.hpp"
#include "vortex/kernels/acceptance.hpp"
#include "vortex/kernels/core_function.hpp"

namespace vortex::gpu {

// Sources and targets as the sums read them (layout.hpp Vec4 records in the arithmetic's type),
// in tree order, relative to the origin: the center of the source root (source_nodes[0]).
struct PackParticles {
  Arithmetic arithmetic = Arithmetic::FloatTiles;
  Core core = Core::Exponential;
  const KdNode* source_nodes = nullptr;
  int num_sources = 0;
  const double *source_x = nullptr, *source_y = nullptr, *source_z = nullptr;  // tree order
  const std::uint32_t* source_perm = nullptr;  // tree position -> caller index
  const double *gx = nullptr, *gy = nullptr, *gz = nullptr, *sigma = nullptr;  // caller order
  int num_targets = 0;
  const double *target_x = nullptr, *target_y = nullptr, *target_z = nullptr;  // tree order
  void* positions = nullptr;  // Vec4: x, y, z, 1/sigma^2
  void* strengths = nullptr;  // Vec4: (Gx, Gy, Gz)/sigma^3, 0
  void* targets = nullptr;    // Vec4: x, y, z, 0
};
void launch_pack_particles(const PackParticles& pack, cudaStream_t stream);

// P2M on the leaves, M2M up the levels, then each node's velocity expansion and center in the
// arithmetic's type, as the far kernel reads them.
struct UpwardPass {
  int order = 8;
  Arithmetic arithmetic = Arithmetic::FloatTiles;
  const KdNode* nodes = nullptr;
  int num_nodes = 0;
  const int* leaves = nullptr;
  int num_leaves = 0;
  const int* inner_by_level = nullptr;  // inner nodes, level by level
  const int* level_start = nullptr;     // host array: level l is [level_start[l], level_start[l+1])
  int num_levels = 0;
  const double *x = nullptr, *y = nullptr, *z = nullptr;  // sources in tree order
  const std::uint32_t* perm = nullptr;
  const double *gx = nullptr, *gy = nullptr, *gz = nullptr;  // strengths in the caller's order
  double* multipoles = nullptr;                              // 3 (p+1)^2 per node (double)
  void* expansions = nullptr;  // velocity_expansion_size(p) per node, in the arithmetic's type
  void* centers = nullptr;     // Vec4 per node, relative to the origin
};
void launch_upward_pass(const UpwardPass& pass, cudaStream_t stream);

// Interaction lists on the device, the same as the host's (vortex/interaction_lists.hpp): per
// target leaf, a walk of the source tree that emits far nodes and merged near ranges. Counts
// first, then offsets, then the entries.
struct ListWalk {
  const KdNode* targets = nullptr;
  const int* target_leaves = nullptr;
  int num_target_leaves = 0;
  const KdNode* sources = nullptr;
  AcceptanceCriteria criteria;
  int* near_count = nullptr;  // per target leaf, pass 1
  int* far_count = nullptr;
  const int* near_offsets = nullptr;  // per target leaf + 1, pass 2
  const int* far_offsets = nullptr;
  Range* near_ranges = nullptr;
  int* far_nodes = nullptr;
  unsigned char* far_orders = nullptr;  // the order of each far entry (far_order)
};
// The deepest walk stack the list kernels hold.
constexpr int kListStack = 192;
void launch_list_counts(const ListWalk& walk, cudaStream_t stream);
void launch_list_fill(const ListWalk& walk, cudaStream_t stream);
// offsets[0..n] = exclusive sums of counts[0..n-1] (offsets[n] the total); `temp` grows as needed.
void exclusive_offsets(const int* counts, int* offsets, int n, DeviceBuffer<unsigned char>& temp,
                       cudaStream_t stream);

}  // namespace vortex::gpu
