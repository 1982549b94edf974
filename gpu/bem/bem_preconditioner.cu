// The boundary-element solve's preconditioner on the GPU (vortex/gpu/bem_preconditioner.hpp).

#include <algorithm>

#include "runtime/warp_sum.cuh"
#include "vortex/gpu/bem_preconditioner.hpp"
#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/stream.hpp"

namespace vortex::gpu {

namespace {

using detail::warp_sum;

constexpr int kWarps = 8;  // warps a block

__device__ __forceinline__ long long global_warp() {
  return (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
}

// z = P^T v, a warp an entry.
__global__ void restrict_kernel(BemPreconditionerView m, const double* __restrict__ v,
                                double* __restrict__ z) {
  const long long k = global_warp();
  if (k >= m.coarse_size()) return;
  const int a = static_cast<int>(k / kCoarseFields), d = static_cast<int>(k % kCoarseFields);
  const double s = warp_sum(bem_coarse_restrict(m, a, d, threadIdx.x % 32, 32, v));
  if (threadIdx.x % 32 == 0) z[k] = s;
}

// y = A_c^-1 z, a warp a row.
__global__ void coarse_solve_kernel(BemPreconditionerView m, const double* __restrict__ z,
                                    double* __restrict__ y) {
  const long long r = global_warp();
  if (r >= m.coarse_size()) return;
  const double s = warp_sum(bem_coarse_solve(m, static_cast<int>(r), threadIdx.x % 32, 32, z));
  if (threadIdx.x % 32 == 0) y[r] = s;
}

// rest = v - (A P) y, a warp a row.
__global__ void residual_kernel(BemPreconditionerView m, const double* __restrict__ v,
                                const double* __restrict__ y, double* __restrict__ rest) {
  const long long r = global_warp();
  if (r >= 2LL * m.panels) return;
  const double s =
      warp_sum(bem_coarse_product(m, static_cast<std::size_t>(r), threadIdx.x % 32, 32, y));
  if (threadIdx.x % 32 == 0) rest[r] = v[r] - s;
}

// out = B v: a block a cluster, a warp a row.
__global__ void smooth_kernel(BemPreconditionerView m, const double* __restrict__ v,
                              double* __restrict__ out) {
  const int c = blockIdx.x;
  const int begin = m.cluster_offsets[c], size = 2 * (m.cluster_offsets[c + 1] - begin);
  const int lane = threadIdx.x % 32;
  for (int r = threadIdx.x / 32; r < size; r += kWarps) {
    const double s = warp_sum(bem_cluster_solve(m, c, r, lane, 32, v));
    if (lane == 0) out[2 * m.cluster_panels[begin + r / 2] + r % 2] = s;
  }
}

// out += P y, a thread an unknown.
__global__ void prolong_kernel(BemPreconditionerView m, const double* __restrict__ y,
                               double* __restrict__ out) {
  const long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= 2LL * m.panels) return;
  out[k] += bem_coarse_prolong(m, static_cast<int>(k / 2), static_cast<int>(k % 2), y);
}

unsigned warp_blocks(long long warps) {
  return static_cast<unsigned>((warps + kWarps - 1) / kWarps);
}

}  // namespace

struct BemPreconditionerKernel::Impl {
  Stream stream;
  DeviceBuffer<int> cluster_offsets, cluster_panels, aggregate_offsets, aggregate_panels,
      aggregate_of;
  DeviceBuffer<std::size_t> inverse_offsets;
  DeviceBuffer<double> inverses, fields, coarse_inverse, ap;
  DeviceBuffer<double> v, out, rest, z, y;
  PinnedBuffer<double> staged;
  BemPreconditionerView view;
};

BemPreconditionerKernel::BemPreconditionerKernel(const BemPreconditionerView& m)
    : impl_(std::make_unique<Impl>()) {
  Impl& d = *impl_;
  d.view = m;
  BemPreconditionerView& v = d.view;
  v.cluster_offsets = upload(d.cluster_offsets, m.cluster_offsets, m.clusters + 1);
  v.cluster_panels = upload(d.cluster_panels, m.cluster_panels, m.cluster_offsets[m.clusters]);
  v.inverse_offsets = upload(d.inverse_offsets, m.inverse_offsets, m.clusters + 1);
  v.inverses = upload(d.inverses, m.inverses, m.inverse_offsets[m.clusters]);
  if (m.aggregates > 0) {
    const std::size_t nc = m.coarse_size(), rows = 2 * static_cast<std::size_t>(m.panels);
    v.aggregate_offsets = upload(d.aggregate_offsets, m.aggregate_offsets, m.aggregates + 1);
    v.aggregate_panels =
        upload(d.aggregate_panels, m.aggregate_panels, m.aggregate_offsets[m.aggregates]);
    v.aggregate_of = upload(d.aggregate_of, m.aggregate_of, m.panels);
    v.fields = upload(d.fields, m.fields, 12 * static_cast<std::size_t>(m.panels));
    v.coarse_inverse = upload(d.coarse_inverse, m.coarse_inverse, nc * nc);
    v.ap = upload(d.ap, m.ap, rows * nc);
    d.rest.reserve(rows);
    d.z.reserve(nc);
    d.y.reserve(nc);
  }
  const std::size_t rows = 2 * static_cast<std::size_t>(m.panels);
  d.v.reserve(rows);
  d.out.reserve(rows);
  d.staged.reserve(rows);
}

BemPreconditionerKernel::~BemPreconditionerKernel() = default;

void BemPreconditionerKernel::apply(const double* in, double* out) {
  Impl& d = *impl_;
  const BemPreconditionerView& m = d.view;
  const std::size_t rows = 2 * static_cast<std::size_t>(m.panels);
  if (rows == 0) return;
  cudaStream_t s = d.stream.get();
  std::copy(in, in + rows, d.staged.data());
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(d.v.data(), d.staged.data(), rows * sizeof(double),
                                    cudaMemcpyHostToDevice, s));
  const unsigned threads = 32 * kWarps;
  const double* smoothed = d.v.data();
  if (m.aggregates > 0) {
    restrict_kernel<<<warp_blocks(m.coarse_size()), threads, 0, s>>>(m, d.v.data(), d.z.data());
    VORTEX_CUDA_CHECK_LAUNCH("bem restrict_kernel");
    coarse_solve_kernel<<<warp_blocks(m.coarse_size()), threads, 0, s>>>(m, d.z.data(), d.y.data());
    VORTEX_CUDA_CHECK_LAUNCH("bem coarse_solve_kernel");
    residual_kernel<<<warp_blocks(static_cast<long long>(rows)), threads, 0, s>>>(
        m, d.v.data(), d.y.data(), d.rest.data());
    VORTEX_CUDA_CHECK_LAUNCH("bem residual_kernel");
    smoothed = d.rest.data();
  }
  smooth_kernel<<<m.clusters, threads, 0, s>>>(m, smoothed, d.out.data());
  VORTEX_CUDA_CHECK_LAUNCH("bem smooth_kernel");
  if (m.aggregates > 0) {
    prolong_kernel<<<static_cast<unsigned>((rows + threads - 1) / threads), threads, 0, s>>>(
        m, d.y.data(), d.out.data());
    VORTEX_CUDA_CHECK_LAUNCH("bem prolong_kernel");
  }
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(d.staged.data(), d.out.data(), rows * sizeof(double),
                                    cudaMemcpyDeviceToHost, s));
  d.stream.synchronize();
  std::copy(d.staged.data(), d.staged.data() + rows, out);
}

}  // namespace vortex::gpu
