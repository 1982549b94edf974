#pragma once
// Launchers of the treecode's stages that run on the device after the trees (device_tree.hpp):
// packing the particles for the sums, the upward pass and the interaction lists. Arrays are device
// pointers unless said otherwise.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/layout.hpp"
#include "vortex/math/acceptance.hpp"
#include "vortex/math/core_function.hpp"

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
// target leaf, a walk of the source tree that emits far nodes and merged near ranges. The walk is
// split at a frontier of source nodes (walk_frontier), one thread per (frontier node, target leaf)
// slot, so that few target leaves still fill the device; the lists do not depend on the frontier.
// Counts first (per slot, then per leaf), then offsets, then the entries.
struct ListWalk {
  const KdNode* targets = nullptr;
  const int* target_leaves = nullptr;
  int num_target_leaves = 0;
  const KdNode* sources = nullptr;
  AcceptanceCriteria criteria;
  const int* frontier = nullptr;  // num_slots source nodes, in tree order
  int num_slots = 0;
  // Per slot (slot-major: slot s of leaf l at s * num_target_leaves + l): near ranges and far
  // entries, counted, then offsets within the leaf's lists; the first near range's begin, then the
  // merge flags; the last near range's end.
  int *slot_near = nullptr, *slot_far = nullptr, *slot_first = nullptr, *slot_last = nullptr;
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
// The frontier of the walk at `depth` (host nodes): the nodes of that level and the leaves above,
// in tree order; depth 0 is the root alone.
std::vector<int> walk_frontier(const std::vector<KdNode>& sources, int depth);
// The deepest frontier (at most kMaxFrontierDepth) with at most kListThreads slots for
// `target_leaves` leaves: enough threads to fill the device, each slot holding four counters.
constexpr long long kListThreads = 1ll << 22;
constexpr int kMaxFrontierDepth = 8;
std::vector<int> pick_walk_frontier(const std::vector<KdNode>& sources, int target_leaves);
// The frontier on the device and the per-slot counters of the walk.
struct ListWalkSlots {
  DeviceBuffer<int> nodes, near, far, first, last;
  int num_slots = 0;
  void prepare(const std::vector<int>& frontier, int target_leaves, cudaStream_t stream);
  void attach(ListWalk& walk) const;
};
void launch_list_counts(const ListWalk& walk, cudaStream_t stream);
void launch_list_fill(const ListWalk& walk, cudaStream_t stream);
// offsets[0..n] = exclusive sums of counts[0..n-1] (offsets[n] the total); `temp` grows as needed.
void exclusive_offsets(const int* counts, int* offsets, int n, DeviceBuffer<unsigned char>& temp,
                       cudaStream_t stream);
void exclusive_offsets(const long long* counts, long long* offsets, int n,
                       DeviceBuffer<unsigned char>& temp, cudaStream_t stream);

}  // namespace vortex::gpu
