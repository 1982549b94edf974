// vrm_diffuse's first round on the GPU (vortex/gpu/vrm_round.hpp).

#include "vrm/vrm_round_cuda.hpp"
#include "vortex/gpu/vrm_round.hpp"

namespace vortex::detail {

namespace {

class CudaVrm final : public VrmDevice {
 public:
  void load(const GridView& grid, const ParticleSet& p, std::size_t capacity, double radius,
            double h, double hole, const std::array<double, 10>& moments) override {
    gpu::VrmRoundParticles in{grid,        p.x.data(),  p.y.data(), p.z.data(), p.gx.data(),
                              p.gy.data(), p.gz.data(), p.size(),   capacity,   radius,
                              h,           hole,        {}};
    for (int k = 0; k < 10; ++k) in.moments[k] = moments[k];
    kernel_.load(in);
  }

  vrm::RoundBatchResult solve(const std::int32_t* owners, std::size_t count,
                              const std::int32_t* moment_row, const double* own_moments,
                              std::size_t own_count, const double* distance, bool lists) override {
    return kernel_.solve({owners, count, moment_row, own_moments, own_count, distance, lists});
  }

  void add_particles(const GridView& grid, const ParticleSet& p, std::size_t loaded) override {
    kernel_.add_particles(
        {grid, p.x.data() + loaded, p.y.data() + loaded, p.z.data() + loaded, p.size() - loaded});
  }

  vrm::RoundHandover hand_over() override { return kernel_.hand_over(); }

 private:
  gpu::VrmRoundKernel kernel_;
};

}  // namespace

std::unique_ptr<VrmDevice> VrmDevice::create() {
  return std::make_unique<CudaVrm>();
}

}  // namespace vortex::detail
