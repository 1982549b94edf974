#pragma once
// The boundary-element solve's preconditioner on the GPU (vortex/math/bem_preconditioner.hpp): its
// arrays go to the device once; each application uploads the vector, runs the coarse correction
// and the block Jacobi there, a warp an entry's sum, and downloads the result.

#include <memory>

#include "vortex/math/bem_preconditioner.hpp"

namespace vortex::gpu {

class BemPreconditionerKernel {
 public:
  // `m`: host arrays, copied.
  explicit BemPreconditionerKernel(const BemPreconditionerView& m);
  ~BemPreconditionerKernel();
  BemPreconditionerKernel(const BemPreconditionerKernel&) = delete;
  BemPreconditionerKernel& operator=(const BemPreconditionerKernel&) = delete;

  // out = M^-1 in (2 per panel, host memory). Returns once `out` is written.
  void apply(const double* in, double* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vortex::gpu
