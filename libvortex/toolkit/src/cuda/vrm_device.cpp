// vrm_diffuse's first round on the GPU (vortex/gpu/vrm_round.hpp).

#include "vrm_device.hpp"
#include "vortex/gpu/vrm_round.hpp"

namespace vortex::detail {

namespace {

static_assert(int{kDeviceSolved} == int{gpu::kVrmSolved} &&
                  int{kDeviceNoSolution} == int{gpu::kVrmNoSolution} &&
                  int{kDeviceDeferred} == int{gpu::kVrmDeferred} &&
                  int{kDeviceCrowded} == int{gpu::kVrmCrowded},
              "the device's outcomes");

class CudaVrm final : public VrmDevice {
 public:
  VrmDeviceResult solve(const GridView& grid, const ParticleSet& p, const std::int32_t* owners,
                        std::size_t count, double radius, double h,
                        const std::array<double, 10>& moments, const std::int32_t* moment_row,
                        const double* own_moments, std::size_t own_count,
                        const double* distance) override {
    gpu::VrmRoundInput in{grid,        p.x.data(),  p.y.data(), p.z.data(), p.gx.data(),
                          p.gy.data(), p.gz.data(), p.size(),   owners,     count,
                          radius,      h,           {}};
    for (int k = 0; k < 10; ++k) in.moments[k] = moments[k];
    in.moment_row = moment_row;
    in.own_moments = own_moments;
    in.own_count = own_count;
    in.distance = distance;
    const gpu::VrmRoundResult r = kernel_.run(in);
    return {r.outcome,
            r.size,
            r.residual,
            r.gx,
            r.gy,
            r.gz,
            r.seconds_upload,
            r.seconds_solve,
            r.seconds_handover,
            r.seconds_download};
  }

 private:
  gpu::VrmRoundKernel kernel_;
};

}  // namespace

std::unique_ptr<VrmDevice> VrmDevice::create() {
  return std::make_unique<CudaVrm>();
}

}  // namespace vortex::detail
