#pragma once
// What the VRM's first round on the GPU returns to the host, declared once for both sides: the
// device's round (vortex/gpu/vrm_round.hpp) fills these, the toolkit's round
// (vrm/vrm_round_cuda.hpp in the toolkit's sources) reads them. Host arrays, valid until the
// round's next load.

#include <cstddef>
#include <cstdint>

namespace vortex::vrm {

// The slots of an owner's neighbour list on the device: an owner with more comes back crowded.
constexpr int kRoundSlots = 64;

// What the device made of an owner.
enum RoundOutcome : std::int8_t {
  kRoundSolved = 0,      // fractions found, its strength handed over (or its list returned)
  kRoundNoSolution = 1,  // none exist within R
  kRoundDeferred = 2,    // left unfinished (more of its fallback's steps than the device takes)
  kRoundCrowded = 3,     // more than kRoundSlots neighbours
};

// The kernels' times of a batch's solves (CUDA events): the neighbour lists, the first Newton
// iterations, the unfinished owners resumed, the fallback's solves, the free nodes; and the owners
// whose solve needed the fallback's steps. Public as vortex::VrmKernelSeconds (vortex/vrm.hpp).
struct RoundKernelTimes {
  double lists = 0, first = 0, resumed = 0, fallback = 0, nodes = 0;
  std::size_t fallback_owners = 0;
  RoundKernelTimes& operator+=(const RoundKernelTimes& o) {
    lists += o.lists;
    first += o.first;
    resumed += o.resumed;
    fallback += o.fallback;
    nodes += o.nodes;
    fallback_owners += o.fallback_owners;
    return *this;
  }
};

// One batch of owners.
struct RoundBatchResult {
  const std::int8_t* outcome = nullptr;  // per owner of the batch (RoundOutcome)
  const std::int32_t* size = nullptr;    // per owner: its neighbours (solved or without a solution)
  const double* residual = nullptr;      // per owner: the moment residual of its solve
  // With lists: per owner, kRoundSlots slots of neighbours (ascending) and fractions.
  const std::int32_t* neighbors = nullptr;
  const double* fractions = nullptr;
  // In a batch without wall distances, where a mask holds the nodes within R (at most
  // kMaxNodeWords words, vrm_nodes.hpp): `free_count` owners without a solution, their places in
  // the batch (in no particular order) and the masks of their free lattice nodes, `node_words`
  // words each. Valid until the next solve.
  std::size_t free_count = 0;
  const std::int32_t* free_owner = nullptr;
  const std::uint64_t* free_nodes = nullptr;
  int node_words = 0;
  // The device's time for the batch's uploads, solves and downloads, and the solves' kernels.
  double seconds_upload = 0, seconds_solve = 0, seconds_download = 0;
  RoundKernelTimes kernels;
};

// The hand-over: what the owners solved since the load give each particle.
struct RoundHandover {
  const double *gx = nullptr, *gy = nullptr, *gz = nullptr;  // per particle
  double seconds_upload = 0;  // the particles' and the grid's uploads (load)
  double seconds_handover = 0, seconds_download = 0;
};

}  // namespace vortex::vrm
