#pragma once
// The near-wall sums of the BEM right-hand side on the GPU (vortex/bodies/near_wall.hpp): the
// panels and the rule stay on the device; each call bins the particles on the host in cells as wide
// as the widest reach plus the largest panel diameter, so that a panel's particles lie in the 27
// cells around its centroid, and one warp per panel sums near_wall_term over them in a fixed order.

#include <cstddef>
#include <memory>

#include "vortex/math/core_function.hpp"

namespace vortex::bodies {
struct Panel;
}

namespace vortex::gpu {

// The particles next to the wall, n of each (host arrays).
struct NearWallInput {
  const double *x, *y, *z, *gx, *gy, *gz, *inv_sigma, *reach;
  std::size_t n;
};

class NearWallKernel {
 public:
  // `bary` holds 3 barycentric coordinates per rule point, `weight` one.
  NearWallKernel(const bodies::Panel* panels, std::size_t count, const double* bary,
                 const double* weight, int points);
  ~NearWallKernel();
  NearWallKernel(const NearWallKernel&) = delete;
  NearWallKernel& operator=(const NearWallKernel&) = delete;

  // out[3 i + k]: component k of panel i's sum.
  void compute(Core core, const NearWallInput& particles, double max_diameter, double* out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vortex::gpu
