#pragma once
// The GPU side of BemOperator's near corrections: the blocks on the device, a product a call
// (bem_near_blocks_cuda.cpp with CUDA; bem/no_cuda.cpp makes none in a build without it).

#include <memory>

#include "vortex/bodies/bem_near_field.hpp"

namespace vortex::bodies::detail {

class BemNearBlocksDevice {
 public:
  // Null in a build without CUDA or on a machine without a device.
  static std::unique_ptr<BemNearBlocksDevice> create(const NearField& near);
  virtual ~BemNearBlocksDevice() = default;
  // out[3 i + r]: panel i's near correction of row r for `gamma`, the host's sums to rounding.
  virtual void corrections(const double* gamma, double* out) = 0;
};

}  // namespace vortex::bodies::detail
