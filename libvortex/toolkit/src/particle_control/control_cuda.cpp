// Particle control's decisions on the GPU, the host's side (control_cuda.hpp).

#include "particle_control/control_cuda.hpp"

#include "vortex/gpu/particle_control.hpp"

namespace vortex::detail {

namespace {

class ControlCuda final : public ControlDevice {
 public:
  void load(const GridView& grid, const double* strength, double threshold, double h,
            const WallNearby* wall) override {
    gpu::ControlParticles p{grid, strength, nullptr, nullptr, nullptr, 0, 0, false, threshold, h};
    if (wall != nullptr) {
      p.wall = wall->distance.data();
      p.plane = wall->plane.data();
      p.planes = wall->planes.empty() ? nullptr : wall->planes.front().data();
      p.plane_count = wall->planes.size();
      p.body_scale = wall->body_scale;
      p.solid = wall->solid;
    }
    kernel_.load(p);
  }
  void merge_flags(double radius, std::int8_t* flags) override {
    kernel_.merge_flags(radius, flags);
  }
  void shares(const std::int32_t* places, const std::uint8_t* merging, std::size_t count,
              const std::uint8_t* candidate, double first_radius, control::DeviceShares* out,
              const std::int32_t*& receivers, const double*& fractions) override {
    std::int32_t* r = nullptr;
    double* f = nullptr;
    kernel_.shares(places, merging, count, candidate, first_radius, out, r, f);
    receivers = r;
    fractions = f;
  }

 private:
  gpu::ControlKernel kernel_;
};

}  // namespace

std::unique_ptr<ControlDevice> ControlDevice::create() {
  return std::make_unique<ControlCuda>();
}

}  // namespace vortex::detail
