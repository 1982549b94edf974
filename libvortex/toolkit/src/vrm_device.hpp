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

namespace vortex::detail {

// What the device made of an owner.
enum VrmDeviceOutcome : std::int8_t {
  kDeviceSolved = 0,      // fractions found, its strength handed over (the sums below)
  kDeviceNoSolution = 1,  // none exist within R
  kDeviceDeferred = 2,    // a step only the host takes: solve on the host
  kDeviceCrowded = 3,     // too many neighbours: solve on the host
};

// Host arrays, valid until the next solve.
struct VrmDeviceResult {
  const std::int8_t* outcome;  // per owner
  const std::int32_t* size;    // per owner: its neighbours (0 unless solved)
  const double* residual;      // per owner
  const double *gx, *gy, *gz;  // per particle: what the solved owners give it
  // The device's time for the uploads, the solves, the hand-over, the downloads.
  double seconds_upload = 0, seconds_solve = 0, seconds_handover = 0, seconds_download = 0;
};

class VrmDevice {
 public:
  // Null in a build without CUDA.
  static std::unique_ptr<VrmDevice> create();
  virtual ~VrmDevice() = default;
  // The owners' neighbours within `radius` on `grid` (built over the particles of `p`) and their
  // fractions for the ten `moments` (units of h), or for an owner whose `moment_row` is r >= 0
  // (when given), for row r of `own_moments` (10 values a row), leaving out the particles whose
  // `distance` from the wall (when given) is below 0; then what the solved owners' strengths give
  // each particle by these fractions.
  virtual VrmDeviceResult solve(const GridView& grid, const ParticleSet& p,
                                const std::int32_t* owners, std::size_t count, double radius,
                                double h, const std::array<double, 10>& moments,
                                const std::int32_t* moment_row, const double* own_moments,
                                std::size_t own_count, const double* distance) = 0;
};

}  // namespace vortex::detail
