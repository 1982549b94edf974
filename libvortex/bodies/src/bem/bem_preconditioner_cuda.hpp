#pragma once
// The GPU side of BemPreconditioner: its arrays on the device, an application a call
// (bem_preconditioner_cuda.cpp with CUDA; bem/no_cuda.cpp makes none in a build without it).

#include <memory>

#include "vortex/math/bem_preconditioner.hpp"

namespace vortex::bodies::detail {

class BemPreconditionerDevice {
 public:
  // Null in a build without CUDA or on a machine without a device. `m`'s arrays are host memory,
  // copied at once.
  static std::unique_ptr<BemPreconditionerDevice> create(const BemPreconditionerView& m);
  virtual ~BemPreconditionerDevice() = default;
  // out = M^-1 in, host memory (2 unknowns per panel): the host's sums to rounding.
  virtual void apply(const double* in, double* out) = 0;
};

}  // namespace vortex::bodies::detail
