// The closest wall points on the GPU (vortex/gpu/wall_points.hpp).

#include <cmath>
#include <stdexcept>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/wall_points.hpp"

namespace vortex::gpu {

namespace {

using bodies::Panel;
using bodies::Vec3;
using bodies::WallPoint;

constexpr int kThreads = 128;

// One thread per point: as WallQueries::closest_within, with the nearest centroid found within the
// grid's cell (a nearer one than that is all the reach needs).
__global__ void wall_points_kernel(GridView centroids, const Panel* __restrict__ panels,
                                   double corner_reach, const double* __restrict__ x,
                                   const double* __restrict__ y, const double* __restrict__ z,
                                   int n, double reach, WallPoint* __restrict__ out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const Vec3 p{x[k], y[k], z[k]};
  double best2 = INFINITY;
  grid_query(centroids, p.x, p.y, p.z, centroids.cell, [&](std::int32_t j) {
    const Vec3 c = panels[j].centroid;
    const double dx = c.x - p.x, dy = c.y - p.y, dz = c.z - p.z;
    best2 = fmin(best2, dx * dx + dy * dy + dz * dz);
  });
  // Every point of a panel lies within corner_reach of its centroid: the wall is at least
  // nearest - corner_reach away (at least the cell less that, with no centroid within the cell).
  const double nearest = best2 < INFINITY ? sqrt(best2) : centroids.cell;
  const double bound = nearest - corner_reach;
  if (bound > reach) {
    WallPoint far;
    far.distance = bound;
    out[k] = far;
    return;
  }
  // The closest point's panel has its centroid within nearest + corner_reach (as the host's, with
  // its relative margin: lengths of any scale).
  const double r = (nearest + corner_reach) * (1 + 1e-9);
  bodies::ClosestPanel closest(p);
  grid_query(centroids, p.x, p.y, p.z, r, [&](std::int32_t j) { closest.consider(j, panels[j]); });
  out[k] = closest.result();
}

}  // namespace

struct WallPointsKernel::Impl {
  Stream stream{true};
  DeviceBuffer<Panel> panels;
  DeviceBuffer<GridRow> rows;
  DeviceBuffer<GridCell> cells;
  DeviceBuffer<std::int32_t> index;
  DeviceBuffer<double> cx, cy, cz, points;
  DeviceBuffer<WallPoint> found;
  PinnedBuffer<double> staged;
  PinnedBuffer<WallPoint> result;
  GridView grid{};
  double corner_reach = 0;
};

WallPointsKernel::WallPointsKernel(const Panel* panels, std::size_t count,
                                   const GridView& centroids, double corner_reach)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  if (centroids.size != count)
    throw std::invalid_argument(
        "wall points on the GPU: the grid must hold every panel's centroid");
  upload(m.panels, panels, count);
  m.grid = centroids;
  m.grid.rows = upload(m.rows, centroids.rows, centroids.slots);
  m.grid.cells = upload(m.cells, centroids.cells, centroids.cell_count + 1);
  m.grid.index = upload(m.index, centroids.index, count);
  m.grid.x = upload(m.cx, centroids.x, count);
  m.grid.y = upload(m.cy, centroids.y, count);
  m.grid.z = upload(m.cz, centroids.z, count);
  m.corner_reach = corner_reach;
}

WallPointsKernel::~WallPointsKernel() = default;

void WallPointsKernel::closest_within(const double* x, const double* y, const double* z,
                                      std::size_t n, double reach, WallPoint* out) {
  Impl& m = *impl_;
  if (!(reach + 2 * m.corner_reach <= m.grid.cell))
    throw std::invalid_argument("wall points on the GPU: the reach exceeds the centroids' grid");
  if (n == 0) return;
  cudaStream_t s = m.stream.get();
  double* staged = m.staged.reserve(3 * n);
  std::copy(x, x + n, staged);
  std::copy(y, y + n, staged + n);
  std::copy(z, z + n, staged + 2 * n);
  double* points = m.points.reserve(3 * n);
  VORTEX_CUDA_CHECK(
      cudaMemcpyAsync(points, staged, 3 * n * sizeof(double), cudaMemcpyHostToDevice, s));
  const int count = static_cast<int>(n);
  wall_points_kernel<<<(count + kThreads - 1) / kThreads, kThreads, 0, s>>>(
      m.grid, m.panels.data(), m.corner_reach, points, points + n, points + 2 * n, count, reach,
      m.found.reserve(n));
  VORTEX_CUDA_CHECK_LAUNCH("wall_points_kernel");
  WallPoint* result = m.result.reserve(n);
  VORTEX_CUDA_CHECK(
      cudaMemcpyAsync(result, m.found.data(), n * sizeof(WallPoint), cudaMemcpyDeviceToHost, s));
  m.stream.synchronize();
  std::copy(result, result + n, out);
}

}  // namespace vortex::gpu
