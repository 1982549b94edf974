// M2L and L2L of the local expansions on the device (local_launch.hpp; the host half is
// libvortex/evaluator/src/far/local_field_cuda.cpp), one thread a coefficient,
// with the multipole module's terms (m2l.hpp, l2l.hpp) that the host's reference loops sum.

#include <algorithm>

#include "local_shared.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/m2l.hpp"

namespace vortex::gpu {
namespace {

namespace mp = vortex::multipole;

constexpr int kThreads = 128;

// The layout of the M2L blocks at local order q: a thread a coefficient (k, m >= 0) in whole
// warps, and `groups` such sets, each summing every groups-th translation of the chunk.
struct M2LBlock {
  int coefficients, padded, groups;
  __host__ __device__ explicit M2LBlock(int q)
      : coefficients(detail::triangle(q)),
        padded((coefficients + 31) / 32 * 32),
        groups(padded >= 256      ? 1
               : 256 / padded < 4 ? 256 / padded
                                  : 4) {}
  __host__ __device__ int threads() const { return padded * groups; }
};

// Chunk c of the M2L lists (chunk_offsets): node t's translations [first, first + n) into
// partials[c]. The chunk's multipoles and irregular harmonics (of every order) go to shared
// memory, the harmonics of a translation by one warp; each thread sums its coefficient's three
// components over its group's translations, and the groups' sums are added in order.
__global__ void m2l_kernel(LocalField f) {
  extern __shared__ double shared[];
  const LocalLists& l = f.lists;
  const int c = blockIdx.x;
  // The node whose chunks hold c: the last whose first chunk is at or before it.
  const int t = detail::piece_at(l.chunk_offsets, l.num_nodes, c);
  const int p = f.order, q = p + 2;
  const M2LBlock block(q);
  const int first = (c - l.chunk_offsets[t]) * kLocalChunk;
  const int n = min(kLocalChunk, l.m2l_count[t] - first);
  const int* sources = l.m2l + l.slot_offsets[t] + first;
  const int countI = mp::coefficient_count(p + q), sizeM = mp::multipole_size(p);
  double* I = shared;  // translation j: the real parts at I + 2 j countI, the imaginary after
  double* M = shared + 2 * kLocalChunk * countI;
  for (int i = threadIdx.x; i < n * sizeM; i += blockDim.x) {
    const int j = i / sizeM;
    M[i] = f.multipoles[static_cast<long long>(sources[j]) * sizeM + (i - j * sizeM)];
  }
  const KdNode& target = l.targets[t];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int j = warp; j < n; j += blockDim.x / 32) {
    const KdNode& s = l.sources[sources[j]];
    detail::warp_signed_harmonics(p + q, target.center[0] - s.center[0],
                                  target.center[1] - s.center[1], target.center[2] - s.center[2],
                                  I + 2 * j * countI, I + (2 * j + 1) * countI, lane);
  }
  __syncthreads();
  const int group = threadIdx.x / block.padded, o = threadIdx.x % block.padded;
  const bool active = o < block.coefficients;
  int k = 0, m = 0;
  double re[3] = {0, 0, 0}, im[3] = {0, 0, 0};
  if (active) {
    detail::degree_order(o, k, m);
    for (int j = group; j < n; j += block.groups) {
      double r[3], i[3];
      mp::detail::m2l_coefficient(p, k, m, M + j * sizeM, sizeM / 3, I + 2 * j * countI,
                                  I + (2 * j + 1) * countI, r, i);
      for (int e = 0; e < 3; ++e) re[e] += r[e], im[e] += i[e];
    }
  }
  // The groups' sums through shared memory (the harmonics are no longer read), in group order.
  __syncthreads();
  double* sums = shared;
  if (active && group > 0)
    for (int e = 0; e < 3; ++e) {
      sums[((group * block.coefficients + o) * 3 + e) * 2] = re[e];
      sums[((group * block.coefficients + o) * 3 + e) * 2 + 1] = im[e];
    }
  __syncthreads();
  if (!active || group > 0) return;
  for (int g = 1; g < block.groups; ++g)
    for (int e = 0; e < 3; ++e) {
      re[e] += sums[((g * block.coefficients + o) * 3 + e) * 2];
      im[e] += sums[((g * block.coefficients + o) * 3 + e) * 2 + 1];
    }
  const int countL = mp::coefficient_count(q);
  double* P = f.partials + static_cast<long long>(c) * mp::local_size(q);
  const double s = ((k + m) & 1) ? -1.0 : 1.0, w = m > 0 ? 2.0 : 1.0;
  for (int e = 0; e < 3; ++e) {
    P[e * countL + mp::cos_index(k, m)] = s * w * re[e];
    if (m > 0) P[e * countL + mp::sin_index(k, m)] = -s * w * im[e];
  }
}

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

void launch_local_m2l(const LocalField& f, cudaStream_t stream) {
  if (f.num_chunks == 0) return;
  const int p = f.order, q = p + 2;
  const M2LBlock block(q);
  // The harmonics and multipoles of a chunk; the groups' sums reuse the room.
  const std::size_t bytes =
      sizeof(double) * std::max<std::size_t>(
                           kLocalChunk * (2 * mp::coefficient_count(p + q) + mp::multipole_size(p)),
                           6 * std::size_t(block.groups) * block.coefficients);
  VORTEX_CUDA_CHECK(cudaFuncSetAttribute(m2l_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(bytes)));
  m2l_kernel<<<f.num_chunks, block.threads(), bytes, stream>>>(f);
  check_launch("local m2l_kernel");
}

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
