// NearWallSums on the GPU: the panels go to the device once; each call hands the particles next to
// the wall to the kernel (vortex/gpu/near_wall.hpp).

#include "wall/near_wall_cuda.hpp"
#include "vortex/gpu/near_wall.hpp"

namespace vortex::bodies::detail {

namespace {

class CudaNearWall final : public NearWallDevice {
 public:
  CudaNearWall(const Surface& surface, RuleView rule)
      : kernel_(surface.panels.data(), surface.size(), &rule.bary[0][0], rule.weight, rule.size) {}

  void compute(Core core, const NearWallParticles& p, double max_diameter,
               std::vector<Vec3>& out) override {
    sums_.resize(3 * out.size());
    const gpu::NearWallInput in{p.x.data(),         p.y.data(),     p.z.data(),
                                p.gx.data(),        p.gy.data(),    p.gz.data(),
                                p.inv_sigma.data(), p.reach.data(), p.size()};
    kernel_.compute(core, in, max_diameter, sums_.data());
    for (std::size_t i = 0; i < out.size(); ++i)
      out[i] = {sums_[3 * i], sums_[3 * i + 1], sums_[3 * i + 2]};
  }

 private:
  gpu::NearWallKernel kernel_;
  std::vector<double> sums_;
};

}  // namespace

std::unique_ptr<NearWallDevice> NearWallDevice::create(const Surface& surface, RuleView rule) {
  return std::make_unique<CudaNearWall>(surface, rule);
}

}  // namespace vortex::bodies::detail
