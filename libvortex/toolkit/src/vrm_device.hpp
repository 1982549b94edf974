#pragma once
// The GPU side of vrm_diffuse: the first round's solves of the owners in free space
// (src/cuda/vrm_device.cpp with CUDA; src/cuda/no_cuda.cpp makes none in a build without it).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "vortex/kernels/grid_cells.hpp"
#include "vortex/particles.hpp"

namespace vortex::detail {

// What the device made of an owner.
enum VrmDeviceOutcome : std::int8_t {
  kDeviceSolved = 0,      // fractions found (its list below)
  kDeviceNoSolution = 1,  // none exist within R
  kDeviceDeferred = 2,    // too many neighbours, or a step the host takes: solve on the host
};

// Host arrays, valid until the next solve.
struct VrmDeviceLists {
  const std::int8_t* outcome;     // per owner
  const std::int32_t* first;      // per owner and one more: where its list lies below
  const std::int32_t* neighbors;  // ascending particle indices
  const double* fractions;
  const double* residual;  // per owner
};

class VrmDevice {
 public:
  // Null in a build without CUDA.
  static std::unique_ptr<VrmDevice> create();
  virtual ~VrmDevice() = default;
  // The owners' neighbours within `radius` on `grid` (built over `points`) and their fractions
  // for the ten `moments` (units of h), or for an owner whose `moment_row` is r >= 0 (when given),
  // for row r of `own_moments` (10 values a row).
  virtual VrmDeviceLists solve(const GridView& grid, PointsView points, const std::int32_t* owners,
                               std::size_t count, double radius, double h,
                               const std::array<double, 10>& moments,
                               const std::int32_t* moment_row, const double* own_moments,
                               std::size_t own_count) = 0;
};

}  // namespace vortex::detail
