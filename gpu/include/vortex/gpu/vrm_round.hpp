#pragma once
// The VRM's first round on the GPU (vortex/vrm.hpp): for each owner it is given, one thread finds
// the particles within R on the host's grid of cells (vortex/kernels/grid_cells.hpp), in ascending
// order as the host's search returns them, and solves for their non-negative fractions by the
// dual method the host runs too (vortex/kernels/vrm_dual.hpp): the first few Newton iterations in
// that thread, the rest of the owners still unsolved in a second kernel whose threads each take the
// next of them as soon as their own is done (a warp no longer waits for its slowest owner's many
// iterations). The particles' coordinates and strengths are copied once, the strengths beside the
// solves; the grid's sorted copy of the coordinates is gathered on the device. Owners with more
// neighbours than kVrmMaxNeighbors come back `crowded`, solves that need a step only the host
// takes (an eigendecomposition or an LDL^T factorization) `deferred`: the host solves both. The
// solved owners' lists stay on the device: every particle gathers what they give it
// (vortex/kernels/vrm_handover.hpp), and only these sums come back.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "vortex/kernels/grid_cells.hpp"

namespace vortex::gpu {

constexpr int kVrmMaxNeighbors = 64;

enum VrmRoundOutcome : std::int8_t {
  kVrmSolved = 0,
  kVrmNoSolution = 1,
  kVrmDeferred = 2,  // a step only the host takes
  kVrmCrowded = 3,   // more than kVrmMaxNeighbors neighbours
};

struct VrmRoundInput {
  GridView grid;            // built on the host over exactly the particles below, cells >= radius
  const double *x, *y, *z;  // the particles (host arrays)
  const double *gx, *gy, *gz;  // their strengths
  std::size_t n;
  const std::int32_t* owners;  // the owners to solve (host array)
  std::size_t count;
  double radius;       // R
  double spacing;      // h: offsets are taken in units of h
  double moments[10];  // 1, first moments, second moments, in units of h
  // Optional, per owner: the row of `own_moments` (10 values each, units of h) that replaces
  // `moments` for it, or -1.
  const std::int32_t* moment_row = nullptr;
  const double* own_moments = nullptr;
  std::size_t own_count = 0;
  // Optional, per particle: its distance from the wall; particles below 0 (inside a body) are no
  // one's neighbours.
  const double* distance = nullptr;
};

// Host arrays, valid until the next run.
struct VrmRoundResult {
  const std::int8_t* outcome;  // per owner
  const std::int32_t* size;    // per owner: its neighbours (0 unless solved)
  const double* residual;      // per owner: the moment residual of its solve
  const double *gx, *gy, *gz;  // per particle: what the solved owners give it
  // The device's time (CUDA events) for the uploads, the solves, the hand-over, the downloads.
  double seconds_upload = 0, seconds_solve = 0, seconds_handover = 0, seconds_download = 0;
};

class VrmRoundKernel {
 public:
  VrmRoundKernel();
  ~VrmRoundKernel();
  VrmRoundKernel(const VrmRoundKernel&) = delete;
  VrmRoundKernel& operator=(const VrmRoundKernel&) = delete;

  VrmRoundResult run(const VrmRoundInput& input);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vortex::gpu
