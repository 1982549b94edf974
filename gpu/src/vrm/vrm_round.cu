// The VRM's first round on the GPU (vortex/gpu/vrm_round.hpp).

#include <cub/device/device_scan.cuh>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/vrm_round.hpp"
#include "vortex/kernels/vrm_dual.hpp"

namespace vortex::gpu {

namespace {

constexpr int kMax = kVrmMaxNeighbors;
constexpr int kThreads = 128;

struct Moments {
  double b[10];
};

// One thread per owner: its neighbours within R, ascending; their offsets in units of h; the
// shared dual solve. Solved owners write their lists to their fixed slots (kMax entries each).
__global__ void vrm_round_kernel(
    GridView grid, const double* __restrict__ x, const double* __restrict__ y,
    const double* __restrict__ z, const std::int32_t* __restrict__ owners, int count, double radius,
    double inv_h, Moments moments, const std::int32_t* __restrict__ moment_row,
    const double* __restrict__ own_moments, std::int8_t* __restrict__ outcome,
    std::int32_t* __restrict__ sizes, double* __restrict__ residual,
    std::int32_t* __restrict__ slot_neighbors, double* __restrict__ slot_fractions) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const std::int32_t i = owners[t];
  const double xi = x[i], yi = y[i], zi = z[i];
  std::int32_t nb[kMax];
  int m = 0;
  grid_query(grid, xi, yi, zi, radius, [&](std::int32_t j) {
    if (m < kMax) nb[m] = j;
    ++m;
  });
  sizes[t] = 0;
  residual[t] = 0;
  if (m > kMax) {
    outcome[t] = kVrmDeferred;
    return;
  }
  for (int a = 1; a < m; ++a) {  // ascending, as the host's search
    const std::int32_t v = nb[a];
    int b = a - 1;
    for (; b >= 0 && nb[b] > v; --b) nb[b + 1] = nb[b];
    nb[b + 1] = v;
  }
  double d[3 * kMax], inv_c[kMax], f[kMax], dots[kMax], trial[kMax];
  int self = -1;
  for (int k = 0; k < m; ++k) {
    const std::int32_t j = nb[k];
    if (j == i) self = k;
    d[3 * k] = (x[j] - xi) * inv_h;
    d[3 * k + 1] = (y[j] - yi) * inv_h;
    d[3 * k + 2] = (z[j] - zi) * inv_h;
  }
  const std::int32_t row = moment_row ? moment_row[t] : -1;
  const double* b = row >= 0 ? own_moments + 10 * static_cast<std::size_t>(row) : moments.b;
  vrm::NoFallback fallback;
  double res = 0;
  const vrm::Outcome o = vrm::solve_redistribution(m, d, self, b, {inv_c, f, dots, trial}, true,
                                                   fallback, &res, nullptr);
  residual[t] = res;
  if (o == vrm::Outcome::deferred) {
    outcome[t] = kVrmDeferred;
    return;
  }
  if (o == vrm::Outcome::no_solution) {
    outcome[t] = kVrmNoSolution;
    return;
  }
  outcome[t] = kVrmSolved;
  sizes[t] = m;
  std::int32_t* out_nb = slot_neighbors + static_cast<std::size_t>(t) * kMax;
  double* out_f = slot_fractions + static_cast<std::size_t>(t) * kMax;
  for (int k = 0; k < m; ++k) {
    out_nb[k] = nb[k];
    out_f[k] = f[k];
  }
}

// The solved lists, from their slots to one after another.
__global__ void vrm_compact_kernel(int count, const std::int32_t* __restrict__ first,
                                   const std::int32_t* __restrict__ slot_neighbors,
                                   const double* __restrict__ slot_fractions,
                                   std::int32_t* __restrict__ neighbors,
                                   double* __restrict__ fractions) {
  const int t = blockIdx.x * blockDim.x / 32 + threadIdx.x / 32;  // a warp per owner
  const int lane = threadIdx.x % 32;
  if (t >= count) return;
  const int begin = first[t], size = first[t + 1] - begin;
  const std::size_t slot = static_cast<std::size_t>(t) * kMax;
  for (int k = lane; k < size; k += 32) {
    neighbors[begin + k] = slot_neighbors[slot + k];
    fractions[begin + k] = slot_fractions[slot + k];
  }
}

template <class T>
void upload(DeviceBuffer<T>& to, const T* from, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(to.reserve(n), from, n * sizeof(T), cudaMemcpyHostToDevice, s));
}

template <class T>
void download(PinnedBuffer<T>& to, const DeviceBuffer<T>& from, std::size_t n, cudaStream_t s) {
  to.reserve(n > 0 ? n : 1);
  if (n == 0) return;
  VORTEX_CUDA_CHECK(
      cudaMemcpyAsync(to.data(), from.data(), n * sizeof(T), cudaMemcpyDeviceToHost, s));
}

}  // namespace

struct VrmRoundKernel::Impl {
  Stream stream;
  DeviceBuffer<GridCell> table;
  DeviceBuffer<double> sorted_x, sorted_y, sorted_z, x, y, z;
  DeviceBuffer<std::int32_t> sorted_index, owners, sizes, first, slot_neighbors, neighbors;
  DeviceBuffer<std::int32_t> moment_row;
  DeviceBuffer<double> residual, slot_fractions, fractions, own_moments;
  DeviceBuffer<std::int8_t> outcome;
  DeviceBuffer<unsigned char> scan_storage;
  PinnedBuffer<std::int8_t> host_outcome;
  PinnedBuffer<std::int32_t> host_first, host_neighbors;
  PinnedBuffer<double> host_fractions, host_residual;
};

VrmRoundKernel::VrmRoundKernel() : impl_(std::make_unique<Impl>()) {}
VrmRoundKernel::~VrmRoundKernel() = default;

VrmRoundResult VrmRoundKernel::run(const VrmRoundInput& in) {
  Impl& m = *impl_;
  cudaStream_t s = m.stream.get();
  const std::size_t count = in.count;
  // The grid and the particles.
  GridView grid = in.grid;
  upload(m.table, in.grid.table, in.grid.slots, s);
  upload(m.sorted_x, in.grid.x, in.grid.size, s);
  upload(m.sorted_y, in.grid.y, in.grid.size, s);
  upload(m.sorted_z, in.grid.z, in.grid.size, s);
  upload(m.sorted_index, in.grid.index, in.grid.size, s);
  grid.table = m.table.data();
  grid.x = m.sorted_x.data();
  grid.y = m.sorted_y.data();
  grid.z = m.sorted_z.data();
  grid.index = m.sorted_index.data();
  upload(m.x, in.x, in.n, s);
  upload(m.y, in.y, in.n, s);
  upload(m.z, in.z, in.n, s);
  upload(m.owners, in.owners, count, s);
  const bool own = in.moment_row != nullptr;
  if (own) {
    upload(m.moment_row, in.moment_row, count, s);
    upload(m.own_moments, in.own_moments, 10 * in.own_count, s);
  }
  // The solves, then the lists one after another.
  m.outcome.reserve(count + 1);
  m.sizes.reserve(count + 1);
  m.residual.reserve(count + 1);
  m.first.reserve(count + 1);
  m.slot_neighbors.reserve(count * kMax + 1);
  m.slot_fractions.reserve(count * kMax + 1);
  Moments moments;
  for (int k = 0; k < 10; ++k) moments.b[k] = in.moments[k];
  const int n_owners = static_cast<int>(count);
  std::int32_t total = 0;
  if (count > 0) {
    vrm_round_kernel<<<(n_owners + kThreads - 1) / kThreads, kThreads, 0, s>>>(
        grid, m.x.data(), m.y.data(), m.z.data(), m.owners.data(), n_owners, in.radius,
        1.0 / in.spacing, moments, own ? m.moment_row.data() : nullptr,
        own ? m.own_moments.data() : nullptr, m.outcome.data(), m.sizes.data(), m.residual.data(),
        m.slot_neighbors.data(), m.slot_fractions.data());
    VORTEX_CUDA_CHECK_LAUNCH("vrm_round_kernel");
    VORTEX_CUDA_CHECK(cudaMemsetAsync(m.sizes.data() + count, 0, sizeof(std::int32_t), s));
    std::size_t temp = 0;
    VORTEX_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp, m.sizes.data(), m.first.data(),
                                                    n_owners + 1, s));
    VORTEX_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(
        m.scan_storage.reserve(temp), temp, m.sizes.data(), m.first.data(), n_owners + 1, s));
    VORTEX_CUDA_CHECK(cudaMemcpyAsync(&total, m.first.data() + count, sizeof(std::int32_t),
                                      cudaMemcpyDeviceToHost, s));
    m.stream.synchronize();
    const int warps_per_block = kThreads / 32;
    vrm_compact_kernel<<<(n_owners + warps_per_block - 1) / warps_per_block, kThreads, 0, s>>>(
        n_owners, m.first.data(), m.slot_neighbors.data(), m.slot_fractions.data(),
        m.neighbors.reserve(total + 1), m.fractions.reserve(total + 1));
    VORTEX_CUDA_CHECK_LAUNCH("vrm_compact_kernel");
  }
  download(m.host_outcome, m.outcome, count, s);
  download(m.host_first, m.first, count > 0 ? count + 1 : 0, s);
  download(m.host_residual, m.residual, count, s);
  download(m.host_neighbors, m.neighbors, total, s);
  download(m.host_fractions, m.fractions, total, s);
  m.stream.synchronize();
  if (count == 0) m.host_first.data()[0] = 0;
  return {m.host_outcome.data(), m.host_first.data(), m.host_neighbors.data(),
          m.host_fractions.data(), m.host_residual.data()};
}

}  // namespace vortex::gpu
