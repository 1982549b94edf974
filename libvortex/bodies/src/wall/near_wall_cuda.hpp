#pragma once
// The GPU side of NearWallSums: the panels and the rule on the device
// (near_wall_cuda.cpp with CUDA; no_cuda.cpp makes none in a build without it).

#include <memory>
#include <vector>

#include "vortex/bodies/near_wall.hpp"

namespace vortex::bodies::detail {

class NearWallDevice {
 public:
  // Null in a build without CUDA.
  static std::unique_ptr<NearWallDevice> create(const Surface& surface, RuleView rule);
  virtual ~NearWallDevice() = default;
  virtual void compute(Core core, const NearWallParticles& particles, double max_diameter,
                       std::vector<Vec3>& out) = 0;
};

}  // namespace vortex::bodies::detail
