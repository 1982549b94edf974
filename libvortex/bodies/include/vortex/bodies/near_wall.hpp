#pragma once
// The exact near-wall part of the BEM right-hand side (BodyFlowOptions::wall_exact): per panel,
// the sum of near_wall_term over the particles next to the wall whose reach (plus the largest
// panel diameter) covers the panel's centroid. On CPU threads (a neighbour search over the
// particles, gathered panel by panel in ascending particle order) or on the GPU (the particles
// binned in cells as wide as the widest reach, one warp per panel, with a fixed order of sums):
// each backend gives the same sums on every call and every thread count; the two agree to
// rounding.

#include <memory>
#include <vector>

#include "vortex/bodies/surface.hpp"
#include "vortex/math/near_wall_term.hpp"
#include "vortex/options.hpp"

namespace vortex::bodies {

// The particles next to the wall, as the wall sees them (their cores capped), with their reach.
struct NearWallParticles {
  std::vector<double> x, y, z, gx, gy, gz, inv_sigma, reach;

  std::size_t size() const { return x.size(); }
  void clear();
  void push_back(const Vec3& at, const Vec3& strength, double inv_sigma, double reach);
};

namespace detail {
class NearWallDevice;  // the panels on the GPU (wall/near_wall_cuda.hpp)
}

class NearWallSums {
 public:
  // `surface` and `rule` (the BEM's target rule) must outlive the object. Backend Cuda (or Auto
  // where a GPU is present) copies the panels to the GPU once; Cuda without one throws.
  NearWallSums(const Surface& surface, const TriangleRule& rule, Backend backend);
  ~NearWallSums();
  NearWallSums(NearWallSums&&) noexcept;
  NearWallSums& operator=(NearWallSums&&) noexcept;

  // One sum per panel into `out` (resized).
  void compute(Core core, const NearWallParticles& particles, std::vector<Vec3>& out);
  // Cpu or Cuda: where compute() runs.
  Backend backend() const { return device_ ? Backend::Cuda : Backend::Cpu; }

 private:
  void compute_cpu(Core core, const NearWallParticles& particles, std::vector<Vec3>& out) const;
  RuleView rule_view() const;

  const Surface* surface_;
  const TriangleRule* rule_;
  std::vector<double> bary_;  // the rule's barycentric coordinates, 3 per point
  std::unique_ptr<detail::NearWallDevice> device_;
};

}  // namespace vortex::bodies
