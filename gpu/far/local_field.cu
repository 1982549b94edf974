// L2L of the local expansions on the device (local_launch.hpp; the host half is
// libvortex/evaluator/src/far/local_field_cuda.cpp; the M2L: local_m2l.cu): each stored expansion
// its chunks' sum and its ancestor's shift, one thread a coefficient, with the multipole module's
// terms (l2l.hpp) that the host's reference loop sums.

#include <algorithm>

#include "local_shared.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/multipole/l2l.hpp"

namespace vortex::gpu {
namespace {

namespace mp = vortex::multipole;

constexpr int kThreads = 128;

// The stored expansion of each node t of one step that takes M2L entries: its chunks in order and
// the L2L of the nearest ancestor that holds one.
__global__ void l2l_kernel(LocalField f, int root, int first, int n) {
  __shared__ double R[mp::coefficient_count(mp::kMaxLocalOrder)];
  const LocalLists& l = f.lists;
  const int t = root >= 0 ? root : level_child(l, first, n, blockIdx.x);
  if (t < 0 || l.m2l_count[t] == 0) return;
  const int q = f.order + 2, size = mp::local_size(q);
  double* L = f.locals + static_cast<long long>(l.stored_index[t]) * size;
  const int from = l.local_from[t];
  const double* chunks = f.partials + static_cast<long long>(l.chunk_offsets[t]) * size;
  const int num_chunks = l.chunk_offsets[t + 1] - l.chunk_offsets[t];
  for (int i = threadIdx.x; i < size; i += blockDim.x) {
    double sum = 0;
    for (int k = 0; k < num_chunks; ++k) sum += chunks[static_cast<long long>(k) * size + i];
    L[i] = sum;
  }
  if (from < 0) return;
  __syncthreads();
  detail::shift_local(l, f, from, t, R, L);
}

void check_launch(const char* what) {
  VORTEX_CUDA_CHECK_LAUNCH(what);
}

}  // namespace

void launch_local_l2l(const LocalField& f, const std::vector<int>& start, cudaStream_t stream) {
  if (f.num_chunks == 0) return;
  l2l_kernel<<<1, kThreads, 0, stream>>>(f, 0, 0, 0);
  check_launch("local l2l_kernel");
  for (int level = 0; level + 1 < static_cast<int>(start.size()); ++level) {
    const int n = start[level + 1] - start[level];
    if (n == 0) continue;
    l2l_kernel<<<n * kLevelChildren, kThreads, 0, stream>>>(f, -1, start[level], n);
    check_launch("local l2l_kernel");
  }
}

}  // namespace vortex::gpu
