// The upward pass on the device (tree_launch.hpp): the multipole module's P2M, M2M and M2V, one
// thread per node, compiled for one order at a time so that their scratch arrays stay small.

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/tree_launch.hpp"
#include "vortex/kernels/order_dispatch.hpp"
#include "vortex/multipole/expansion.hpp"

namespace vortex::gpu {
namespace {

namespace mp = vortex::multipole;

template <int P>
__global__ void p2m_kernel(UpwardPass u) {
  const int l = blockIdx.x * blockDim.x + threadIdx.x;
  if (l >= u.num_leaves) return;
  constexpr int stride = mp::multipole_size(P);
  const int k = u.leaves[l];
  const KdNode& node = u.nodes[k];
  double M[stride];
  for (int c = 0; c < stride; ++c) M[c] = 0;
  for (int i = node.begin; i < node.end; ++i) {
    const std::uint32_t j = u.perm[i];
    mp::unchecked::p2m<P>(P, u.x[i] - node.center[0], u.y[i] - node.center[1],
                          u.z[i] - node.center[2], u.gx[j], u.gy[j], u.gz[j], M);
  }
  double* out = u.multipoles + static_cast<long long>(k) * stride;
  for (int c = 0; c < stride; ++c) out[c] = M[c];
}

template <int P>
__global__ void m2m_kernel(UpwardPass u, int first, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  constexpr int stride = mp::multipole_size(P);
  const int k = u.inner_by_level[first + i];
  const KdNode& parent = u.nodes[k];
  double M[stride];
  for (int c = 0; c < stride; ++c) M[c] = 0;
  for (int c = parent.first_child; c < parent.first_child + parent.num_children; ++c) {
    const KdNode& child = u.nodes[c];
    mp::unchecked::m2m<P>(P, child.center[0] - parent.center[0], child.center[1] - parent.center[1],
                          child.center[2] - parent.center[2],
                          u.multipoles + static_cast<long long>(c) * stride, M);
  }
  double* out = u.multipoles + static_cast<long long>(k) * stride;
  for (int c = 0; c < stride; ++c) out[c] = M[c];
}

template <int P, class T>
__global__ void m2v_kernel(UpwardPass u) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= u.num_nodes) return;
  constexpr int size = mp::velocity_expansion_size(P);
  double V[size];
  mp::unchecked::m2v<P>(P, u.multipoles + static_cast<long long>(k) * mp::multipole_size(P), V);
  T* out = static_cast<T*>(u.expansions) + static_cast<long long>(k) * size;
  for (int c = 0; c < size; ++c) out[c] = static_cast<T>(V[c]);
  const double* o = u.nodes[0].center;
  const double* c = u.nodes[k].center;
  static_cast<Vec4<T>*>(u.centers)[k] = {T(c[0] - o[0]), T(c[1] - o[1]), T(c[2] - o[2]), T(0)};
}

int blocks_for(int n, int threads) {
  return (n + threads - 1) / threads;
}

template <int P>
void run_upward_pass(const UpwardPass& u, cudaStream_t stream) {
  constexpr int threads = 64;
  if (u.num_leaves > 0) {
    p2m_kernel<P><<<blocks_for(u.num_leaves, threads), threads, 0, stream>>>(u);
    VORTEX_CUDA_CHECK_LAUNCH("p2m_kernel");
  }
  for (int level = u.num_levels - 1; level >= 0; --level) {
    const int first = u.level_start[level];
    const int count = u.level_start[level + 1] - first;
    if (count == 0) continue;
    m2m_kernel<P><<<blocks_for(count, threads), threads, 0, stream>>>(u, first, count);
    VORTEX_CUDA_CHECK_LAUNCH("m2m_kernel");
  }
  if (u.arithmetic == Arithmetic::Double)
    m2v_kernel<P, double><<<blocks_for(u.num_nodes, threads), threads, 0, stream>>>(u);
  else
    m2v_kernel<P, float><<<blocks_for(u.num_nodes, threads), threads, 0, stream>>>(u);
  VORTEX_CUDA_CHECK_LAUNCH("m2v_kernel");
}

}  // namespace

void launch_upward_pass(const UpwardPass& u, cudaStream_t stream) {
  if (u.num_nodes == 0) return;
  dispatch_order(u.order, "upward pass", [&](auto p) { run_upward_pass<p()>(u, stream); });
}

}  // namespace vortex::gpu
