// M2L and L2L of the local expansions on the device (local_launch.hpp; the host half is
// libvortex/evaluator/src/far/local_field_cuda.cpp): the M2L one warp a translation and several
// orders a lane, the L2L one thread a coefficient, with the multipole module's terms (m2l.hpp,
// l2l.hpp) that the host's reference loops sum.

#include <algorithm>

#include "local_shared.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/multipole/expansion_scale.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/m2l.hpp"

namespace vortex::gpu {
namespace {

namespace mp = vortex::multipole;

constexpr int kThreads = 128;

// The M2L blocks at local order q with L orders a lane (mp::detail::m2l_coefficients): lanes
// (k, l0) with l0 = 0, L, 2L, .. <= k, in `team` whole warps a translation, and `teams` teams a
// block, each summing every teams-th translation of the chunk.
struct M2LBlock {
  int lanes, team, teams;
  __host__ __device__ M2LBlock(int q, int L) : lanes(0) {
    for (int k = 0; k <= q; ++k) lanes += (k + L) / L;
    team = (lanes + 31) / 32;
    teams = team >= kLocalChunk ? 1 : kLocalChunk / team;
  }
  __host__ __device__ int threads() const { return 32 * team * teams; }
};

// Lane r's degree k and first order l0.
__device__ __forceinline__ void lane_orders(int r, int L, int& k, int& l0) {
  k = 0;
  while (r >= (k + L) / L) r -= (k++ + L) / L;
  l0 = r * L;
}

// The shared memory of a chunk: a slot a translation (the harmonics of every order with L entries
// of margin on each side, the moments, each in T), the translations' scale exponents, and in
// float the rows of each warp's harmonics in double.
template <class T>
struct M2LRoom {
  int countI, sizeM, slot;
  __host__ __device__ M2LRoom(int p, int q, int L)
      : countI(mp::coefficient_count(p + q)),
        sizeM(mp::multipole_size(p)),
        slot(2 * (countI + 2 * L) + sizeM) {}
  __host__ __device__ static constexpr bool rows_apart() { return sizeof(T) != sizeof(double); }
  // Bytes: the slots, the rows, the exponents (each part aligned to 8 bytes).
  __host__ __device__ std::size_t bytes(int warps) const {
    const std::size_t slots = (sizeof(T) * kLocalChunk * slot + 7) / 8 * 8;
    const std::size_t rows = rows_apart() ? sizeof(double) * countI * warps : 0;
    return slots + rows + sizeof(int) * kLocalChunk;
  }
};

// One warp's part of a chunk: the slot of the translation from `source` to `target` (its scale
// exponent e with |t| <= 2^e; its moments of degree n times 2^-en, in T; zeros in the margins; the
// harmonics at t 2^-e), with the harmonics' rows in `rows` (in double) or in place.
template <class T, int L>
__device__ void prepare_translation(const LocalField& f, const KdNode& target, int source,
                                    const M2LRoom<T>& room, double* rows, T* slot, int& exponent,
                                    int lane) {
  const KdNode& s = f.lists.sources[source];
  const double dx = target.center[0] - s.center[0], dy = target.center[1] - s.center[1],
               dz = target.center[2] - s.center[2];
  const int e = mp::scale_exponent(sqrt(dx * dx + dy * dy + dz * dz));
  if (lane == 0) exponent = e;
  const int p = f.order, count = mp::coefficient_count(p);
  T* re = slot + L;
  T* im = re + room.countI + 2 * L;
  T* M = slot + 2 * (room.countI + 2 * L);
  const double* moments = f.multipoles + static_cast<long long>(source) * room.sizeM;
  for (int n = 0; n <= p; ++n) {
    const double scale = ldexp(1.0, -e * n);
    const int width = 2 * n + 1;
    for (int i = lane; i < 3 * width; i += 32) {
      const int component = i / width;
      const int o = component * count + n * n + (i - component * width);
      M[o] = static_cast<T>(scale * moments[o]);
    }
  }
  if (lane < 4 * L) {  // before and after re, then im
    const int part = lane / L;
    slot[(part / 2) * (room.countI + 2 * L) + (part % 2) * (room.countI + L) + lane % L] = T(0);
  }
  const double b = mp::inverse_scale(e);
  detail::warp_signed_harmonics(2 * p + 2, dx * b, dy * b, dz * b,  // degrees up to p + q
                                rows ? rows : reinterpret_cast<double*>(im), re, im, lane);
}

// Chunk c of the M2L lists (chunk_offsets): node t's translations [first, first + n) into
// partials[c]. Translation j by t = (target centre - source centre) is summed at the scale
// b = 2^e >= |t| (multipole/expansion_scale.hpp): the moments of degree n times b^-n and the
// harmonics at t / b are of order one, so that float neither over- nor underflows however deep
// the trees; each lane's sums of L orders l of degree k are added up at the chunk's nearest scale
// (below), its team's translations in order, then the teams' in order, and stored in double.
template <class T, int L>
__global__ void __launch_bounds__(256) m2l_kernel(LocalField f) {
  extern __shared__ double shared[];
  const LocalLists& l = f.lists;
  const int c = blockIdx.x;
  // The node whose chunks hold c: the last whose first chunk is at or before it.
  const int t = detail::piece_at(l.chunk_offsets, l.num_nodes, c);
  const int p = f.order, q = p + 2;
  const M2LBlock block(q, L);
  const M2LRoom<T> room(p, q, L);
  const int first = (c - l.chunk_offsets[t]) * kLocalChunk;
  const int n = min(kLocalChunk, l.m2l_count[t] - first);
  const int* sources = l.m2l + l.slot_offsets[t] + first;
  const int count = mp::coefficient_count(p), warps = blockDim.x / 32;
  T* slots = reinterpret_cast<T*>(shared);
  double* rows = shared + (sizeof(T) * kLocalChunk * room.slot + 7) / 8;
  int* exponents = reinterpret_cast<int*>(rows + (room.rows_apart() ? room.countI * warps : 0));
  const KdNode& target = l.targets[t];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int j = warp; j < n; j += warps)
    prepare_translation<T, L>(f, target, sources[j], room,
                              room.rows_apart() ? rows + warp * room.countI : nullptr,
                              slots + j * room.slot, exponents[j], lane);
  __syncthreads();
  // Each translation's sums (in T) at the scale of the chunk's nearest (exponent e0 <= e_j):
  // times 2^-(e_j - e0)(k + 1) <= 1, which in float flushes only terms below 2^-126 of the
  // nearest's.
  int e0 = exponents[0];
  for (int j = 1; j < n; ++j) e0 = min(e0, exponents[j]);
  const int team = threadIdx.x / (32 * block.team), r = threadIdx.x % (32 * block.team);
  const bool active = r < block.lanes;
  int k = 0, l0 = 0;
  T re[L][3] = {}, im[L][3] = {};
  if (active) {
    lane_orders(r, L, k, l0);
    for (int j = team; j < n; j += block.teams) {
      const T* slot = slots + j * room.slot;  // re, im (each with its margins), moments
      const T *re_j = slot + L, *im_j = re_j + room.countI + 2 * L;
      T tre[L][3], tim[L][3];
      mp::detail::m2l_coefficients<T, L>(p, k, l0, slot + 2 * (room.countI + 2 * L), count, re_j,
                                         im_j, tre, tim);
      const T scale = static_cast<T>(ldexp(1.0, -(exponents[j] - e0) * (k + 1)));
      for (int i = 0; i < L; ++i)
        for (int e = 0; e < 3; ++e) {
          re[i][e] += scale * tre[i][e];
          im[i][e] += scale * tim[i][e];
        }
    }
  }
  // The teams' sums through shared memory (the slots are no longer read), in team order.
  __syncthreads();
  T* sums = reinterpret_cast<T*>(shared);
  const int stride = block.lanes * L * 6;
  if (active && team > 0)
    for (int i = 0; i < L; ++i)
      for (int e = 0; e < 3; ++e) {
        sums[(team - 1) * stride + (r * L + i) * 6 + 2 * e] = re[i][e];
        sums[(team - 1) * stride + (r * L + i) * 6 + 2 * e + 1] = im[i][e];
      }
  __syncthreads();
  if (!active || team > 0) return;
  for (int g = 1; g < block.teams; ++g)
    for (int i = 0; i < L; ++i)
      for (int e = 0; e < 3; ++e) {
        re[i][e] += sums[(g - 1) * stride + (r * L + i) * 6 + 2 * e];
        im[i][e] += sums[(g - 1) * stride + (r * L + i) * 6 + 2 * e + 1];
      }
  const int countL = mp::coefficient_count(q);
  double* P = f.partials + static_cast<long long>(c) * mp::local_size(q);
  const double scale = ldexp(1.0, -e0 * (k + 1));
  for (int i = 0; i < L && l0 + i <= k; ++i) {
    const int m = l0 + i;
    const double s = ((k + m) & 1) ? -scale : scale, w = m > 0 ? 2.0 : 1.0;
    for (int e = 0; e < 3; ++e) {
      P[e * countL + mp::cos_index(k, m)] = s * w * re[i][e];
      if (m > 0) P[e * countL + mp::sin_index(k, m)] = -s * w * im[i][e];
    }
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

namespace {

// The lanes' width L of an M2L at local order q with terms in T, by a count of a warp's issue
// slots per m of the sums (mp::detail::m2l_coefficients): 6 loads of moments (broadcast) and 4 of
// harmonics (two shared-memory wavefronts each in double: 10 in float, 14 in double), and 20 L - 4
// arithmetic instructions at 4 (float) or 2 (double) warp instructions a cycle, over the lanes'
// useful orders.
template <class T>
int m2l_width(int q) {
  constexpr bool single = sizeof(T) == sizeof(float);
  double best = 0;
  int width = 1;
  for (int L = 1; L <= 6; ++L) {
    if (L == 5) continue;
    const M2LBlock b(q, L);
    if (b.threads() > 256) continue;  // the kernel's launch bound
    const double loads = single ? 10 : 14, arithmetic = (20.0 * L - 4) / (single ? 4 : 2);
    const double useful = detail::triangle(q) / (32.0 * b.team * L);
    const double rate = L * useful / std::max(loads, arithmetic);
    if (rate > best * 1.02) best = rate, width = L;
  }
  return width;
}

template <class T, int L>
void launch_m2l(const LocalField& f, cudaStream_t stream) {
  const int p = f.order, q = p + 2;
  const M2LBlock block(q, L);
  const M2LRoom<T> room(p, q, L);
  const int warps = block.threads() / 32;
  // The teams' sums reuse the room.
  const std::size_t bytes =
      std::max(room.bytes(warps), sizeof(T) * std::size_t(block.teams - 1) * block.lanes * L * 6);
  VORTEX_CUDA_CHECK(cudaFuncSetAttribute(
      m2l_kernel<T, L>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  m2l_kernel<T, L><<<f.num_chunks, block.threads(), bytes, stream>>>(f);
  check_launch("local m2l_kernel");
}

template <class T>
void launch_m2l(const LocalField& f, cudaStream_t stream) {
  switch (m2l_width<T>(f.order + 2)) {
    case 1:
      return launch_m2l<T, 1>(f, stream);
    case 2:
      return launch_m2l<T, 2>(f, stream);
    case 3:
      return launch_m2l<T, 3>(f, stream);
    case 4:
      return launch_m2l<T, 4>(f, stream);
    default:
      return launch_m2l<T, 6>(f, stream);
  }
}

}  // namespace

void launch_local_m2l(const LocalField& f, cudaStream_t stream) {
  if (f.num_chunks == 0) return;
  if (f.float_terms)
    launch_m2l<float>(f, stream);
  else
    launch_m2l<double>(f, stream);
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
