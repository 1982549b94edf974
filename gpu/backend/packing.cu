// Particles packed for the sums on the device, in tree order (tree_launch.hpp).

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/tree_launch.hpp"
#include "vortex/math/pair_kernel.hpp"
#include "vortex/math/point_key.hpp"

namespace vortex::gpu {
namespace {

template <class T>
__global__ void pack_kernel(PackParticles p) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const double* o = p.source_nodes[0].center;
  if (i < p.num_sources) {
    const std::uint32_t j = p.source_perm[i];
    const PairSource<double> s = pair_source(p.core, p.gx[j], p.gy[j], p.gz[j], p.sigma[j]);
    const double x = p.source_x[i] - o[0], y = p.source_y[i] - o[1], z = p.source_z[i] - o[2];
    static_cast<Vec4<T>*>(p.positions)[i] = {T(x), T(y), T(z), T(s.inv_sigma2)};
    static_cast<Vec4<T>*>(p.strengths)[i] = {T(s.gx), T(s.gy), T(s.gz), T(point_key(x, y, z))};
  }
  if (i < p.num_targets) {
    const double x = p.target_x[i] - o[0], y = p.target_y[i] - o[1], z = p.target_z[i] - o[2];
    static_cast<Vec4<T>*>(p.targets)[i] = {T(x), T(y), T(z), T(point_key(x, y, z))};
  }
}

}  // namespace

void launch_pack_particles(const PackParticles& p, cudaStream_t stream) {
  const int n = p.num_sources > p.num_targets ? p.num_sources : p.num_targets;
  if (n == 0) return;
  constexpr int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  if (p.arithmetic == Arithmetic::Double)
    pack_kernel<double><<<blocks, threads, 0, stream>>>(p);
  else
    pack_kernel<float><<<blocks, threads, 0, stream>>>(p);
  VORTEX_CUDA_CHECK_LAUNCH("pack_kernel");
}

}  // namespace vortex::gpu
