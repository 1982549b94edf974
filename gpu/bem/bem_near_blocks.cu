// The boundary-element operator's near corrections on the GPU (vortex/gpu/bem_near_blocks.hpp).

#include <algorithm>

#include "runtime/warp_sum.cuh"
#include "vortex/gpu/bem_near_blocks.hpp"
#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/stream.hpp"

namespace vortex::gpu {

namespace {

constexpr int kWarpsPerBlock = 8;

// A warp a panel: each lane sums every 32nd of the panel's blocks, then the lanes' parts are
// summed.
__global__ void bem_near_blocks_kernel(BemNearBlocksView b, int panels,
                                       const double* __restrict__ gamma, double* __restrict__ out) {
  const int lane = threadIdx.x % 32;
  const int i = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
  if (i >= panels) return;
  double rows[3] = {0, 0, 0};
  add_bem_near_rows(b, b.offsets[i] + lane, b.offsets[i + 1], 32, gamma, rows);
  for (int r = 0; r < 3; ++r) rows[r] = detail::warp_sum(rows[r]);
  if (lane == 0)
    for (int r = 0; r < 3; ++r) out[3 * i + r] = rows[r];
}

}  // namespace

struct BemNearBlocksKernel::Impl {
  Stream stream;
  DeviceBuffer<std::size_t> offsets;
  DeviceBuffer<int> j;
  DeviceBuffer<double> tangential, normal, gamma, out;
  PinnedBuffer<double> staged_gamma, staged_out;
  BemNearBlocksView view;
  std::size_t panels = 0;
};

BemNearBlocksKernel::BemNearBlocksKernel(const BemNearBlocksView& blocks, std::size_t panels)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  const std::size_t count = blocks.offsets[panels];
  m.panels = panels;
  m.view.offsets = upload(m.offsets, blocks.offsets, panels + 1);
  m.view.j = upload(m.j, blocks.j, count);
  m.view.tangential = upload(m.tangential, blocks.tangential, 4 * count);
  m.view.normal = upload(m.normal, blocks.normal, 2 * count);
  m.gamma.reserve(2 * panels);
  m.out.reserve(3 * panels);
  m.staged_gamma.reserve(2 * panels);
  m.staged_out.reserve(3 * panels);
}

BemNearBlocksKernel::~BemNearBlocksKernel() = default;

void BemNearBlocksKernel::corrections(const double* gamma, double* out) {
  Impl& m = *impl_;
  const std::size_t n = m.panels;
  if (n == 0) return;
  cudaStream_t s = m.stream.get();
  std::copy(gamma, gamma + 2 * n, m.staged_gamma.data());
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(m.gamma.data(), m.staged_gamma.data(), 2 * n * sizeof(double),
                                    cudaMemcpyHostToDevice, s));
  const int panels = static_cast<int>(n);
  const int grid = (panels + kWarpsPerBlock - 1) / kWarpsPerBlock;
  bem_near_blocks_kernel<<<grid, 32 * kWarpsPerBlock, 0, s>>>(m.view, panels, m.gamma.data(),
                                                              m.out.data());
  VORTEX_CUDA_CHECK_LAUNCH("bem_near_blocks_kernel");
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(m.staged_out.data(), m.out.data(), 3 * n * sizeof(double),
                                    cudaMemcpyDeviceToHost, s));
  m.stream.synchronize();
  std::copy(m.staged_out.data(), m.staged_out.data() + 3 * n, out);
}

}  // namespace vortex::gpu
