// The VRM's first round on the GPU (vortex/gpu/vrm_round.hpp).

#include <stdexcept>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/vrm_round.hpp"
#include "vortex/kernels/vrm_dual.hpp"
#include "vortex/kernels/vrm_handover.hpp"

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
    const double* __restrict__ own_moments, const double* __restrict__ distance,
    std::int8_t* __restrict__ outcome, std::int32_t* __restrict__ sizes,
    double* __restrict__ residual, std::int32_t* __restrict__ slot_neighbors,
    double* __restrict__ slot_fractions) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const std::int32_t i = owners[t];
  const double xi = x[i], yi = y[i], zi = z[i];
  std::int32_t nb[kMax];
  int m = 0;
  grid_query(grid, xi, yi, zi, radius, [&](std::int32_t j) {
    if (distance != nullptr && distance[j] < 0) return;  // inside the body
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

// Marks each solved owner's slot in the per-particle map (cleared to -1 before).
__global__ void vrm_slot_kernel(int count, const std::int32_t* __restrict__ owners,
                                const std::int8_t* __restrict__ outcome,
                                std::int32_t* __restrict__ slot_of) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count && outcome[t] == kVrmSolved) slot_of[owners[t]] = t;
}

// One thread per particle, in the grid's order (neighbouring threads walk the same cells): what
// the solved owners give it.
__global__ void vrm_handover_kernel(GridView grid, const double* __restrict__ x,
                                    const double* __restrict__ y, const double* __restrict__ z,
                                    const double* __restrict__ gx, const double* __restrict__ gy,
                                    const double* __restrict__ gz, vrm::SolvedSlots slots, int n,
                                    double radius, double* __restrict__ out_x,
                                    double* __restrict__ out_y, double* __restrict__ out_z) {
  const int at = blockIdx.x * blockDim.x + threadIdx.x;
  if (at >= n) return;
  const std::int32_t j = grid.index[at];
  double r[3];
  vrm::received(grid, x, y, z, gx, gy, gz, slots, j, radius, r);
  out_x[j] = r[0];
  out_y[j] = r[1];
  out_z[j] = r[2];
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
  DeviceBuffer<double> sorted_x, sorted_y, sorted_z, x, y, z, gx, gy, gz;
  DeviceBuffer<std::int32_t> sorted_index, owners, sizes, slot_of, slot_neighbors, moment_row;
  DeviceBuffer<double> residual, slot_fractions, own_moments, distance, sum_x, sum_y, sum_z;
  DeviceBuffer<std::int8_t> outcome;
  PinnedBuffer<std::int8_t> host_outcome;
  PinnedBuffer<std::int32_t> host_sizes;
  PinnedBuffer<double> host_residual, host_x, host_y, host_z;
  Event start, uploaded, solved, handed_over;  // the phases' times
  Event downloaded{cudaEventBlockingSync};     // waited for without spinning
};

VrmRoundKernel::VrmRoundKernel() : impl_(std::make_unique<Impl>()) {}
VrmRoundKernel::~VrmRoundKernel() = default;

VrmRoundResult VrmRoundKernel::run(const VrmRoundInput& in) {
  Impl& m = *impl_;
  cudaStream_t s = m.stream.get();
  const std::size_t count = in.count, n = in.n;
  if (in.grid.size != n)
    throw std::invalid_argument("VRM on the GPU: the grid must hold exactly the given particles");
  m.start.record(m.stream);
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
  DeviceBuffer<double>* particles[6] = {&m.x, &m.y, &m.z, &m.gx, &m.gy, &m.gz};
  const double* given[6] = {in.x, in.y, in.z, in.gx, in.gy, in.gz};
  for (int k = 0; k < 6; ++k) upload(*particles[k], given[k], n, s);
  upload(m.owners, in.owners, count, s);
  if (in.distance != nullptr) upload(m.distance, in.distance, n, s);
  const bool own = in.moment_row != nullptr;
  if (own) {
    upload(m.moment_row, in.moment_row, count, s);
    upload(m.own_moments, in.own_moments, 10 * in.own_count, s);
  }
  m.outcome.reserve(count + 1);
  m.sizes.reserve(count + 1);
  m.residual.reserve(count + 1);
  m.slot_neighbors.reserve(count * kMax + 1);
  m.slot_fractions.reserve(count * kMax + 1);
  m.slot_of.reserve(n + 1);
  m.sum_x.reserve(n + 1);
  m.sum_y.reserve(n + 1);
  m.sum_z.reserve(n + 1);
  Moments moments;
  for (int k = 0; k < 10; ++k) moments.b[k] = in.moments[k];
  const int n_owners = static_cast<int>(count), n_points = static_cast<int>(n);
  m.uploaded.record(m.stream);
  // The solves, then each particle's share of the solved owners' strengths.
  if (count > 0) {
    vrm_round_kernel<<<(n_owners + kThreads - 1) / kThreads, kThreads, 0, s>>>(
        grid, m.x.data(), m.y.data(), m.z.data(), m.owners.data(), n_owners, in.radius,
        1.0 / in.spacing, moments, own ? m.moment_row.data() : nullptr,
        own ? m.own_moments.data() : nullptr, in.distance ? m.distance.data() : nullptr,
        m.outcome.data(), m.sizes.data(), m.residual.data(), m.slot_neighbors.data(),
        m.slot_fractions.data());
    VORTEX_CUDA_CHECK_LAUNCH("vrm_round_kernel");
  }
  m.solved.record(m.stream);
  if (n > 0) {
    VORTEX_CUDA_CHECK(cudaMemsetAsync(m.slot_of.data(), 0xFF, n * sizeof(std::int32_t), s));
    if (count > 0) {
      vrm_slot_kernel<<<(n_owners + kThreads - 1) / kThreads, kThreads, 0, s>>>(
          n_owners, m.owners.data(), m.outcome.data(), m.slot_of.data());
      VORTEX_CUDA_CHECK_LAUNCH("vrm_slot_kernel");
    }
    const vrm::SolvedSlots slots{m.slot_of.data(), m.sizes.data(), m.slot_neighbors.data(),
                                 m.slot_fractions.data(), kMax};
    vrm_handover_kernel<<<(n_points + kThreads - 1) / kThreads, kThreads, 0, s>>>(
        grid, m.x.data(), m.y.data(), m.z.data(), m.gx.data(), m.gy.data(), m.gz.data(), slots,
        n_points, in.radius, m.sum_x.data(), m.sum_y.data(), m.sum_z.data());
    VORTEX_CUDA_CHECK_LAUNCH("vrm_handover_kernel");
  }
  m.handed_over.record(m.stream);
  download(m.host_outcome, m.outcome, count, s);
  download(m.host_sizes, m.sizes, count, s);
  download(m.host_residual, m.residual, count, s);
  PinnedBuffer<double>* sums[3] = {&m.host_x, &m.host_y, &m.host_z};
  const DeviceBuffer<double>* summed[3] = {&m.sum_x, &m.sum_y, &m.sum_z};
  for (int k = 0; k < 3; ++k) download(*sums[k], *summed[k], n, s);
  m.downloaded.record(m.stream);
  m.downloaded.synchronize();
  VrmRoundResult r{m.host_outcome.data(), m.host_sizes.data(), m.host_residual.data(),
                   m.host_x.data(),       m.host_y.data(),     m.host_z.data()};
  r.seconds_upload = m.uploaded.seconds_since(m.start);
  r.seconds_solve = m.solved.seconds_since(m.uploaded);
  r.seconds_handover = m.handed_over.seconds_since(m.solved);
  r.seconds_download = m.downloaded.seconds_since(m.handed_over);
  return r;
}

}  // namespace vortex::gpu
