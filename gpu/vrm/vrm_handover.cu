// The hand-over of the VRM's first round on the GPU (vrm_kernels.hpp): what the solved owners
// give each particle, and the grid's gather of the coordinates.

#include "vortex/gpu/check.hpp"
#include "vrm_kernels.hpp"

namespace vortex::gpu::vrm_kernels {
namespace {

// The grid's copy of the coordinates, in its order, from the particles' (a gather on the device
// rather than a second upload of the same values).
__global__ void vrm_gather_kernel(int n, const std::int32_t* __restrict__ index,
                                  const double* __restrict__ x, const double* __restrict__ y,
                                  const double* __restrict__ z, double* __restrict__ out_x,
                                  double* __restrict__ out_y, double* __restrict__ out_z) {
  const int at = blockIdx.x * blockDim.x + threadIdx.x;
  if (at >= n) return;
  const std::int32_t j = index[at];
  out_x[at] = x[j];
  out_y[at] = y[j];
  out_z[at] = z[j];
}

// Marks each solved owner's slot in the per-particle map (cleared to -1 before).
__global__ void vrm_slot_kernel(int count, const std::int32_t* __restrict__ owners,
                                const std::int8_t* __restrict__ outcome,
                                std::int32_t* __restrict__ slot_of) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count && outcome[t] == vrm::kRoundSolved) slot_of[owners[t]] = t;
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

int blocks_for(int n) {
  return (n + kThreads - 1) / kThreads;
}

}  // namespace

void launch_gather(int n, const std::int32_t* index, const double* x, const double* y,
                   const double* z, double* out_x, double* out_y, double* out_z, cudaStream_t s) {
  if (n == 0) return;
  vrm_gather_kernel<<<blocks_for(n), kThreads, 0, s>>>(n, index, x, y, z, out_x, out_y, out_z);
  VORTEX_CUDA_CHECK_LAUNCH("vrm_gather_kernel");
}

void launch_handover(const HandoverLaunch& l, cudaStream_t s) {
  if (l.n == 0) return;
  VORTEX_CUDA_CHECK(cudaMemsetAsync(l.slot_of, 0xFF, l.n * sizeof(std::int32_t), s));
  if (l.count > 0) {
    vrm_slot_kernel<<<blocks_for(l.count), kThreads, 0, s>>>(l.count, l.owners, l.outcome,
                                                             l.slot_of);
    VORTEX_CUDA_CHECK_LAUNCH("vrm_slot_kernel");
  }
  vrm_handover_kernel<<<blocks_for(l.n), kThreads, 0, s>>>(
      l.grid, l.x, l.y, l.z, l.gx, l.gy, l.gz, l.slots, l.n, l.radius, l.out_x, l.out_y, l.out_z);
  VORTEX_CUDA_CHECK_LAUNCH("vrm_handover_kernel");
}

}  // namespace vortex::gpu::vrm_kernels
