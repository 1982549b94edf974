// vrm_diffuse's first round on the GPU (vortex/gpu/vrm_round.hpp).

#include "vrm_device.hpp"
#include "vortex/gpu/vrm_round.hpp"

namespace vortex::detail {

namespace {

static_assert(kDeviceSlots == gpu::kVrmMaxNeighbors, "the device's list slots");
static_assert(int{kDeviceSolved} == int{gpu::kVrmSolved} &&
                  int{kDeviceNoSolution} == int{gpu::kVrmNoSolution} &&
                  int{kDeviceDeferred} == int{gpu::kVrmDeferred} &&
                  int{kDeviceCrowded} == int{gpu::kVrmCrowded},
              "the device's outcomes");

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

  VrmDeviceBatch solve(const std::int32_t* owners, std::size_t count,
                       const std::int32_t* moment_row, const double* own_moments,
                       std::size_t own_count, const double* distance, bool lists) override {
    const gpu::VrmBatchResult r =
        kernel_.solve({owners, count, moment_row, own_moments, own_count, distance, lists});
    return {r.outcome,
            r.size,
            r.residual,
            r.neighbors,
            r.fractions,
            r.free_count,
            r.free_owner,
            r.free_nodes,
            r.seconds_upload,
            r.seconds_solve,
            r.seconds_download,
            {r.seconds_lists, r.seconds_first, r.seconds_resumed, r.seconds_fallback,
             r.seconds_nodes, r.fallback_count}};
  }

  void add_particles(const GridView& grid, const ParticleSet& p, std::size_t loaded) override {
    kernel_.add_particles(
        {grid, p.x.data() + loaded, p.y.data() + loaded, p.z.data() + loaded, p.size() - loaded});
  }

  VrmDeviceSums hand_over() override {
    const gpu::VrmHandover r = kernel_.hand_over();
    return {r.gx, r.gy, r.gz, r.seconds_upload, r.seconds_handover, r.seconds_download};
  }

 private:
  gpu::VrmRoundKernel kernel_;
};

}  // namespace

std::unique_ptr<VrmDevice> VrmDevice::create() {
  return std::make_unique<CudaVrm>();
}

}  // namespace vortex::detail
