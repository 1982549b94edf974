#pragma once
// The kernels of the VRM's first round on the GPU (vortex/gpu/vrm_round.hpp), as its driver
// (vrm_round.cpp) launches them: the owners' solves (vrm_solve.cu) and the hand-over
// (vrm_handover.cu), and the arrays they share.

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "vortex/math/grid_cells.hpp"
#include "vortex/math/vrm_handover.hpp"
#include "vortex/math/vrm_round_results.hpp"

namespace vortex::gpu::vrm_kernels {

constexpr int kMax = vrm::kRoundSlots;
constexpr int kThreads = 128;  // a block of every VRM kernel
// Newton iterations an owner takes in the first kernel: most owners are done by then, and a warp
// waits no longer than this for its slowest. The others go on in the second kernel, whose threads
// each take the next unfinished owner as soon as theirs is done.
constexpr int kFirstIterations = 4;
// An unfinished owner's saved solve: its multipliers, the regularization's scale, the iterations
// (-1: before its start).
constexpr int kSaved = 12;
// Iterations the fallback's kernel takes for an owner it takes up: nearly all finish within them.
// The few that would take more (each of their iterations is an eigendecomposition, up to 80 of
// them on one thread) go to the host, whose cores finish them sooner.
constexpr int kFallbackIterations = 16;
// Outcome of an owner left unfinished for a later kernel (never returned).
constexpr std::int8_t kUnfinished = 4;
// The device's counters: the owners the first kernel left unfinished and those the second kernel's
// threads have taken, the owners listed with free nodes, the owners deferred to the fallback and
// those its threads have taken.
enum Counter { kQueued, kTaken, kFreeOwners, kDeferred, kDeferredTaken, kCounters };

struct Moments {
  double b[10];
};

// The arrays both kernels read and write.
struct RoundArrays {
  const double *x, *y, *z;         // the particles, in their own order
  const double *ax, *ay, *az;      // the particles added since load (indices n0 on)
  std::int32_t n0;                 // the particles loaded
  const std::int32_t* owners;      // the owners to solve
  double inv_h;                    // 1 / h: offsets are taken in units of h
  Moments moments;                 // the free-space moments
  const std::int32_t* moment_row;  // per owner, its row of own_moments or -1 (may be null)
  const double* own_moments;
  std::int8_t* outcome;          // per owner
  std::int32_t* sizes;           // per owner: its neighbours (0 unless solved)
  double* residual;              // per owner
  std::int32_t* slot_neighbors;  // per owner, kMax slots: its neighbours, ascending
  double* slot_fractions;        // per owner, kMax slots: their fractions
  double* saved;                 // per owner, kSaved values: an unfinished solve
  std::int32_t* queue;           // the owners left unfinished
  int* queued;                   // how many
  int* taken;                    // how many the second kernel's threads have taken
  std::int32_t* deferred;        // the owners whose solve needs the fallback's steps
  int* deferred_count;           // how many
  int* deferred_taken;           // how many the third kernel's threads have taken
};

// The owners' solves of a batch (vrm_solve.cu), in order on one stream: their neighbour lists
// (leaving out the particles whose `distance`, where given, is below 0), the first iterations,
// the unfinished owners resumed, the fallback's solves; and, where asked, the free lattice nodes of
// the owners without a solution (not of those with a particle left out within R). Each marks its
// end with the event after it (may be null).
struct SolveLaunch {
  GridView grid, added;
  RoundArrays arrays;
  int count = 0;
  // The first iterations take the owners by their neighbour count (a stable sort of the owners'
  // places), so that a warp's threads run passes of like length: count entries each of keys,
  // sorted keys, places and `order`, and order_temp_bytes(count) of scratch.
  std::int32_t *order_keys = nullptr, *sorted_keys = nullptr, *places = nullptr, *order = nullptr;
  void* order_temp = nullptr;
  std::size_t order_temp_bytes = 0;
  double radius = 0, h = 0, hole = 0;
  const double* distance = nullptr;
  int resume_blocks = 0, fallback_blocks = 0;
  // The free nodes: words of a mask (0: none sought), and where the owners and masks go.
  int node_words = 0;
  std::int32_t* free_owner = nullptr;
  std::uint64_t* free_nodes = nullptr;
  int* free_count = nullptr;
};
struct SolveEvents {
  cudaEvent_t listed, first_done, resumed, fallen_back;
};
void launch_solves(const SolveLaunch& launch, const SolveEvents& events, cudaStream_t stream);

// Bytes of scratch the sort of `count` owners by their neighbour count takes.
std::size_t order_temp_bytes(int count);

// Blocks of the resume and fallback kernels that run at once on the device (their grids).
void resident_solve_blocks(int& resume_blocks, int& fallback_blocks);

// The grid's copy of the n coordinates, in its order (index), gathered from the particles'.
void launch_gather(int n, const std::int32_t* index, const double* x, const double* y,
                   const double* z, double* out_x, double* out_y, double* out_z,
                   cudaStream_t stream);

// What the solved owners among `count` (outcomes, owners) give each of the n particles, in the
// grid's order: their slots marked in slot_of (n entries), then one thread per particle.
struct HandoverLaunch {
  GridView grid;
  const double *x, *y, *z, *gx, *gy, *gz;
  int n = 0, count = 0;
  double radius = 0;
  const std::int32_t* owners;
  const std::int8_t* outcome;
  std::int32_t* slot_of;
  vrm::SolvedSlots slots;
  double *out_x, *out_y, *out_z;
};
void launch_handover(const HandoverLaunch& launch, cudaStream_t stream);

}  // namespace vortex::gpu::vrm_kernels
