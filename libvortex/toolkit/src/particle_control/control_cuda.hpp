#pragma once
// The GPU side of particle control: the per-particle decisions (which particles merge, each
// candidate's receivers and fractions) on the device (control_cuda.cpp with CUDA, paired with
// gpu/control/; no_cuda.cpp makes none in a build without it). What comes back is declared once,
// for the device too, in vortex/math/control_shares.hpp.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "vortex/math/control_shares.hpp"
#include "vortex/math/grid_cells.hpp"
#include "vortex/particle_control.hpp"

namespace vortex::detail {

class ControlDevice {
 public:
  // Null in a build without CUDA.
  static std::unique_ptr<ControlDevice> create();
  virtual ~ControlDevice() = default;
  // The grid over every particle (cells of h), per place the |Gamma|, the strength below which
  // particles are weak, and the wall (null: none) with its distances and planes per place.
  virtual void load(const GridView& grid, const double* strength, double threshold, double h,
                    const WallNearby* wall) = 0;
  // Per place, control::kMerge, kMergeOnHost or kNoMerge for merges within `radius`.
  virtual void merge_flags(double radius, std::int8_t* flags) = 0;
  // The receivers and fractions of the candidates at `places` (candidate: per place, non-zero for
  // every candidate); receivers and fractions point at the pools until the next call.
  virtual void shares(const std::int32_t* places, const std::uint8_t* merging, std::size_t count,
                      const std::uint8_t* candidate, double first_radius,
                      control::DeviceShares* out, const std::int32_t*& receivers,
                      const double*& fractions) = 0;
};

}  // namespace vortex::detail
