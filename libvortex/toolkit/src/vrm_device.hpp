#pragma once
// The GPU side of vrm_diffuse: the first round's solves of the owners in free space and the
// hand-over of their strengths (src/cuda/vrm_device.cpp with CUDA; src/cuda/no_cuda.cpp makes none
// in a build without it).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "vortex/kernels/grid_cells.hpp"
#include "vortex/particles.hpp"
#include "vortex/vrm.hpp"

namespace vortex::detail {

// The slots of an owner's list that the device returns (with lists).
constexpr int kDeviceSlots = 64;

// What the device made of an owner.
enum VrmDeviceOutcome : std::int8_t {
  kDeviceSolved = 0,      // fractions found, its strength handed over (the sums below)
  kDeviceNoSolution = 1,  // none exist within R
  kDeviceDeferred = 2,    // left unfinished (long with the fallback's steps): solve on the host
  kDeviceCrowded = 3,     // too many neighbours: solve on the host
};

// Host arrays, valid until the next load.
struct VrmDeviceBatch {
  const std::int8_t* outcome;  // per owner of the batch
  const std::int32_t* size;    // per owner: its neighbours (0 unless solved)
  const double* residual;      // per owner
  // With lists: per owner, kDeviceSlots slots of its neighbours (ascending) and their fractions.
  const std::int32_t* neighbors = nullptr;
  const double* fractions = nullptr;
  // Without `distance`: `free_count` of the owners without a solution, their places in the batch
  // (in no particular order) and the masks of their free lattice nodes, as many words each as
  // R's cube needs (vortex/kernels/vrm_nodes.hpp); none where it needs more than
  // vrm::kMaxNodeWords. Valid until the next solve.
  std::size_t free_count = 0;
  const std::int32_t* free_owner = nullptr;
  const std::uint64_t* free_nodes = nullptr;
  // The device's time for the batch's uploads, solves and downloads, and of the solves by kernel.
  double seconds_upload = 0, seconds_solve = 0, seconds_download = 0;
  VrmKernelSeconds kernels;
};

// Host arrays, valid until the next load.
struct VrmDeviceSums {
  const double *gx, *gy, *gz;  // per particle: what the solved owners give it
  // The device's time for the particles' uploads, the hand-over and its download.
  double seconds_upload = 0, seconds_handover = 0, seconds_download = 0;
};

class VrmDevice {
 public:
  // Null in a build without CUDA.
  static std::unique_ptr<VrmDevice> create();
  virtual ~VrmDevice() = default;
  // The particles of `p` and the grid built over them, for batches of owners that hold at most
  // `capacity` owners together until the next hand_over; neighbours within `radius`, fractions
  // for the ten `moments` (units of h) unless a batch gives an owner its own; a lattice node is
  // free if no particle lies within `hole` of it.
  virtual void load(const GridView& grid, const ParticleSet& p, std::size_t capacity, double radius,
                    double h, double hole, const std::array<double, 10>& moments) = 0;
  // The owners' neighbours and fractions, for an owner whose `moment_row` is r >= 0 (when given)
  // for row r of `own_moments` (10 values a row), leaving out the particles whose `distance` from
  // the wall (when given) is below 0. Returns once the outcomes are on the host.
  // With `lists`, the solved owners' lists come back and are not handed over.
  virtual VrmDeviceBatch solve(const std::int32_t* owners, std::size_t count,
                               const std::int32_t* moment_row, const double* own_moments,
                               std::size_t own_count, const double* distance,
                               bool lists = false) = 0;
  // Particles added since load (indices on from the loaded ones: `inserted`, its first
  // `loaded` particles skipped) and the grid over them alone; later batches find neighbours
  // among them too.
  virtual void add_particles(const GridView& grid, const ParticleSet& inserted,
                             std::size_t loaded) = 0;
  // What the owners solved since load give each particle by their fractions.
  virtual VrmDeviceSums hand_over() = 0;
};

}  // namespace vortex::detail
