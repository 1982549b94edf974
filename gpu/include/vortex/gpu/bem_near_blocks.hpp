#pragma once
// The boundary-element operator's near corrections on the GPU (vortex/math/bem_near_rows.hpp): the
// blocks go to the device once; each product uploads the sheet, and a warp a panel sums its blocks.

#include <cstddef>
#include <memory>

#include "vortex/math/bem_near_rows.hpp"

namespace vortex::gpu {

class BemNearBlocksKernel {
 public:
  // `blocks`: host arrays of `panels` panels (offsets has panels + 1 entries).
  BemNearBlocksKernel(const BemNearBlocksView& blocks, std::size_t panels);
  ~BemNearBlocksKernel();
  BemNearBlocksKernel(const BemNearBlocksKernel&) = delete;
  BemNearBlocksKernel& operator=(const BemNearBlocksKernel&) = delete;

  // out[3 i + r] = panel i's near correction of row r for the sheet `gamma` (2 per panel, host
  // memory). Returns once `out` (host memory) is written.
  void corrections(const double* gamma, double* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vortex::gpu
