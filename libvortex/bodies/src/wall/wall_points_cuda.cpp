// WallQueries' batch of closest points on the GPU (vortex/gpu/wall_points.hpp): the panels and the
// grid of their centroids go to the device once, the grid again only for a wider reach.

#include <memory>

#include "vortex/gpu/wall_points.hpp"
#include "vortex/grid_search.hpp"
#include "wall/wall_points_cuda.hpp"

namespace vortex::bodies::detail {

namespace {

class CudaWallPoints final : public WallPointsDevice {
 public:
  CudaWallPoints(const Surface& surface, double corner_reach)
      : surface_(&surface), corner_reach_(corner_reach) {}

  void closest_within(const std::vector<double>& x, const std::vector<double>& y,
                      const std::vector<double>& z, double reach,
                      std::vector<WallPoint>& out) override {
    // The centroids' cells must hold the reach plus twice the corner reach; a quarter more, so
    // that a slightly wider reach later (a longer step) finds them wide enough.
    const double cell = reach + 2 * corner_reach_;
    if (!kernel_ || kernel_cell_ < cell) {
      kernel_cell_ = 1.25 * cell;
      grid_.rebuild(PointsView(panel_centroids(*surface_)), kernel_cell_);
      kernel_ = std::make_unique<gpu::WallPointsKernel>(
          surface_->panels.data(), surface_->panels.size(), grid_.view(), corner_reach_);
    }
    out.resize(x.size());
    kernel_->closest_within(x.data(), y.data(), z.data(), x.size(), reach, out.data());
  }

 private:
  const Surface* surface_;
  double corner_reach_;
  GridSearch grid_;
  double kernel_cell_ = 0;
  std::unique_ptr<gpu::WallPointsKernel> kernel_;
};

}  // namespace

std::unique_ptr<WallPointsDevice> WallPointsDevice::create(const Surface& surface,
                                                           double corner_reach) {
  return std::make_unique<CudaWallPoints>(surface, corner_reach);
}

}  // namespace vortex::bodies::detail
