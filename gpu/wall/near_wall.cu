// The near-wall sums of the BEM right-hand side (vortex/gpu/near_wall.hpp).

#include <algorithm>
#include <cmath>
#include <vector>

#include "runtime/warp_sum.cuh"
#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/near_wall.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/math/near_wall_term.hpp"

namespace vortex::gpu {

namespace {

using bodies::Panel;
using bodies::Vec3;

constexpr int kFields = 8;  // x, y, z, gx, gy, gz, inv_sigma, reach
constexpr int kWarpsPerBlock = 4;
// Bins at most this many cells (wider cells beyond it: the particles lie within a layer
// around the body, so this bound is reached only by odd inputs).
constexpr double kMaxCells = 1 << 22;

struct Grid {
  double lo[3];
  double cell;
  int dims[3];
};

// One warp per panel: the lanes stride the particles of the 27 cells around the centroid, cell by
// cell in a fixed order, and the lane sums are added by a fixed shuffle tree.
__global__ void near_wall_kernel(const Panel* __restrict__ panels, int count, bodies::RuleView rule,
                                 Core core, const double* __restrict__ fields, std::size_t stride,
                                 const int* __restrict__ cell_start, Grid grid, double max_diameter,
                                 double* __restrict__ out) {
  const int panel_index = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (panel_index >= count) return;  // the whole warp
  const Panel panel = panels[panel_index];
  const Vec3 c = panel.centroid;
  const double* x = fields;
  const double* y = fields + stride;
  const double* z = fields + 2 * stride;
  const double* gx = fields + 3 * stride;
  const double* gy = fields + 4 * stride;
  const double* gz = fields + 5 * stride;
  const double* inv_sigma = fields + 6 * stride;
  const double* reach = fields + 7 * stride;
  const double f[3] = {floor((c.x - grid.lo[0]) / grid.cell), floor((c.y - grid.lo[1]) / grid.cell),
                       floor((c.z - grid.lo[2]) / grid.cell)};
  Vec3 sum;
  for (int dk = -1; dk <= 1; ++dk) {
    const double k = f[2] + dk;
    if (k < 0 || k >= grid.dims[2]) continue;
    for (int dj = -1; dj <= 1; ++dj) {
      const double j = f[1] + dj;
      if (j < 0 || j >= grid.dims[1]) continue;
      for (int di = -1; di <= 1; ++di) {
        const double i = f[0] + di;
        if (i < 0 || i >= grid.dims[0]) continue;
        const int cell = (static_cast<int>(k) * grid.dims[1] + static_cast<int>(j)) * grid.dims[0] +
                         static_cast<int>(i);
        for (int p = cell_start[cell] + lane; p < cell_start[cell + 1]; p += 32) {
          const Vec3 at{x[p], y[p], z[p]};
          if (!bodies::near_wall_pair(c, at, reach[p], max_diameter)) continue;
          sum += bodies::near_wall_term(panel, rule, core, at, {gx[p], gy[p], gz[p]}, inv_sigma[p]);
        }
      }
    }
  }
  sum = {detail::warp_sum(sum.x), detail::warp_sum(sum.y), detail::warp_sum(sum.z)};
  if (lane == 0) {
    out[3 * panel_index] = sum.x;
    out[3 * panel_index + 1] = sum.y;
    out[3 * panel_index + 2] = sum.z;
  }
}

}  // namespace

struct NearWallKernel::Impl {
  std::size_t count = 0;
  int points = 0;
  DeviceBuffer<Panel> panels;
  DeviceBuffer<double> rule;  // 3 barycentric coordinates per point, then the weights
  DeviceBuffer<double> fields, out;
  DeviceBuffer<int> cell_start;
  PinnedBuffer<double> staged, result;
  PinnedBuffer<int> staged_cells;
  std::vector<int> cell_of, fill;
  Stream stream;
};

NearWallKernel::NearWallKernel(const Panel* panels, std::size_t count, const double* bary,
                               const double* weight, int points)
    : impl_(std::make_unique<Impl>()) {
  impl_->count = count;
  impl_->points = points;
  VORTEX_CUDA_CHECK(cudaMemcpy(impl_->panels.reserve(count), panels, count * sizeof(Panel),
                               cudaMemcpyHostToDevice));
  double* rule = impl_->rule.reserve(4 * points);
  VORTEX_CUDA_CHECK(cudaMemcpy(rule, bary, 3 * points * sizeof(double), cudaMemcpyHostToDevice));
  VORTEX_CUDA_CHECK(
      cudaMemcpy(rule + 3 * points, weight, points * sizeof(double), cudaMemcpyHostToDevice));
}

NearWallKernel::~NearWallKernel() = default;

void NearWallKernel::compute(Core core, const NearWallInput& p, double max_diameter, double* out) {
  Impl& m = *impl_;
  const std::size_t n = p.n;
  if (m.count == 0) return;
  // The grid: cells as wide as the widest search radius, over the particles' bounding box.
  Grid grid;
  double hi[3], widest = 0;
  const double* axes[3] = {p.x, p.y, p.z};
  for (int a = 0; a < 3; ++a) {
    const auto [lo, top] = std::minmax_element(axes[a], axes[a] + n);
    grid.lo[a] = n ? *lo : 0;
    hi[a] = n ? *top : 0;
  }
  for (std::size_t k = 0; k < n; ++k) widest = std::max(widest, p.reach[k]);
  grid.cell = widest + max_diameter;
  for (;;) {
    double cells = 1;
    for (int a = 0; a < 3; ++a) {
      grid.dims[a] = static_cast<int>(std::floor((hi[a] - grid.lo[a]) / grid.cell)) + 1;
      cells *= grid.dims[a];
    }
    if (cells <= kMaxCells) break;
    grid.cell *= 2;
  }
  const int cells = grid.dims[0] * grid.dims[1] * grid.dims[2];
  // Counting sort by cell, ascending particle index within a cell.
  m.cell_of.resize(n);
  m.fill.assign(cells + 1, 0);
  for (std::size_t k = 0; k < n; ++k) {
    int c[3];
    for (int a = 0; a < 3; ++a)
      c[a] = std::min(grid.dims[a] - 1,
                      static_cast<int>(std::floor((axes[a][k] - grid.lo[a]) / grid.cell)));
    m.cell_of[k] = (c[2] * grid.dims[1] + c[1]) * grid.dims[0] + c[0];
    ++m.fill[m.cell_of[k] + 1];
  }
  for (int c = 0; c < cells; ++c) m.fill[c + 1] += m.fill[c];
  int* starts = m.staged_cells.reserve(cells + 1);
  std::copy(m.fill.begin(), m.fill.end(), starts);
  double* staged = m.staged.reserve(kFields * n);
  const double* in[kFields] = {p.x, p.y, p.z, p.gx, p.gy, p.gz, p.inv_sigma, p.reach};
  for (std::size_t k = 0; k < n; ++k) {
    const int at = m.fill[m.cell_of[k]]++;
    for (int f = 0; f < kFields; ++f) staged[f * n + at] = in[f][k];
  }
  cudaStream_t s = m.stream.get();
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(m.fields.reserve(kFields * n), staged,
                                    kFields * n * sizeof(double), cudaMemcpyHostToDevice, s));
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(m.cell_start.reserve(cells + 1), starts,
                                    (cells + 1) * sizeof(int), cudaMemcpyHostToDevice, s));
  const bodies::RuleView rule{reinterpret_cast<const double(*)[3]>(m.rule.data()),
                              m.rule.data() + 3 * m.points, m.points};
  const int blocks = static_cast<int>((m.count + kWarpsPerBlock - 1) / kWarpsPerBlock);
  near_wall_kernel<<<blocks, 32 * kWarpsPerBlock, 0, s>>>(
      m.panels.data(), static_cast<int>(m.count), rule, core, m.fields.data(), n,
      m.cell_start.data(), grid, max_diameter, m.out.reserve(3 * m.count));
  VORTEX_CUDA_CHECK_LAUNCH("near_wall_kernel");
  double* result = m.result.reserve(3 * m.count);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(result, m.out.data(), 3 * m.count * sizeof(double),
                                    cudaMemcpyDeviceToHost, s));
  m.stream.synchronize();
  std::copy(result, result + 3 * m.count, out);
}

}  // namespace vortex::gpu
