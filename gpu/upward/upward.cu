// The upward pass on the device (tree_launch.hpp), with the multipole module's P2M, M2M and M2V
// terms: a block per leaf (P2M) and per parent (M2M), each thread owning some of the output
// coefficients, and the harmonics and scratch in shared memory rather than in per-thread stack
// arrays of several KB (local memory is reserved for every resident thread).

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/tree_launch.hpp"
#include "vortex/math/order_dispatch.hpp"
#include "vortex/multipole/expansion.hpp"
#include "vortex/multipole/expansion_scale.hpp"

namespace vortex::gpu {
namespace {

namespace mp = vortex::multipole;

constexpr int kSharedBytes = 40 * 1024;

constexpr int max_int(int a, int b) {
  return a > b ? a : b;
}
constexpr int min_int(int a, int b) {
  return a < b ? a : b;
}

// P2M: the leaf's particles in batches; a batch's harmonics in shared memory (a thread per
// particle), then each thread adds the batch to the coefficients it owns, particle by particle in
// tree order (as the host). The harmonics' recurrences are most of the time, so the batches are
// as large as 40 KB allows: with batches of 32 (and a thread per coefficient) P2M took 0.84 ms at
// 1e6 against 0.48 ms with batches of 41 at p = 10. Four threads sharing a particle's harmonics by
// columns (every fourth order each) took 0.54 ms against 0.44: in one warp the columns' loops
// diverge, so the lanes take turns.
template <int P>
struct P2mShape {
  static constexpr int kCount = mp::coefficient_count(P);
  static constexpr int kStride = 3 * kCount;
  static constexpr int kThreads = min_int(128, (kStride + 31) / 32 * 32);
  static constexpr int kBatch = max_int(1, min_int(kThreads, kSharedBytes / (8 * (kCount + 3))));
};

template <int P>
__global__ void p2m_kernel(UpwardPass u) {
  using S = P2mShape<P>;
  constexpr int count = S::kCount;
  constexpr int stride = S::kStride;
  constexpr int batch = S::kBatch;
  constexpr int kThreads = S::kThreads;
  constexpr int owned = (stride + kThreads - 1) / kThreads;
  __shared__ double R[batch][count];
  __shared__ double G[batch][3];
  const int k = u.leaves[blockIdx.x];
  const KdNode& node = u.nodes[k];
  double acc[owned];
  for (int s = 0; s < owned; ++s) acc[s] = 0;
  for (int first = node.begin; first < node.end; first += batch) {
    const int n = min_int(batch, node.end - first);
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
      const int i = first + j;
      const std::uint32_t q = u.perm[i];
      mp::regular_harmonics(P, u.x[i] - node.center[0], u.y[i] - node.center[1],
                            u.z[i] - node.center[2], R[j]);
      G[j][0] = u.gx[q];
      G[j][1] = u.gy[q];
      G[j][2] = u.gz[q];
    }
    __syncthreads();
    for (int s = 0; s < owned; ++s) {
      const int c = threadIdx.x + s * kThreads;
      if (c >= stride) break;
      const int e = c / count, h = c - e * count;
      for (int j = 0; j < n; ++j) acc[s] += G[j][e] * R[j][h];
    }
    __syncthreads();
  }
  double* out = u.multipoles + static_cast<long long>(k) * stride;
  for (int s = 0; s < owned; ++s) {
    const int c = threadIdx.x + s * kThreads;
    if (c < stride) out[c] = acc[s];
  }
}

// M2M: the children's offsets' harmonics and the children's expansions (contiguous in node order)
// in shared memory; then the threads share the (child, term) pairs, each term (n, m) of a component
// translated from one child, and each output sums its children's terms in child order (as the
// host, to the last bit). Reading the children from global memory term by term left every thread
// waiting on memory (0.8 ms at p = 9 for 600 parents); a thread per term that looped over the
// children left each level as long as eight of its longest terms (0.72 ms for five levels at 1e6).
template <int P>
struct M2mShared {
  static constexpr int kCount = mp::coefficient_count(P);
  static constexpr int kStride = 3 * kCount;
  static constexpr int kPairs = (P + 1) * (P + 2) / 2;  // (n, m) with 0 <= m <= n <= P
  static constexpr int kTerms = 3 * kPairs;             // (component, n, m)
  static constexpr int kThreads = 512;
  // Harmonics [8][kCount], children [8][kStride], translated terms [8][kTerms] (re, im).
  static constexpr std::size_t kBytes = sizeof(double) * 8 * (kCount + kStride + 2 * kTerms);
};

// Component e and harmonic (n, m) of term t of M2mShared.
template <int P>
__device__ void m2m_term_of(int t, int& e, int& n, int& m) {
  e = t / M2mShared<P>::kPairs;
  int r = t - e * M2mShared<P>::kPairs;
  n = 0;
  while (r > n) r -= ++n;
  m = r;
}

template <int P>
__global__ void m2m_kernel(UpwardPass u, int first) {
  using S = M2mShared<P>;
  extern __shared__ double shared[];
  double* R = shared;              // [8][kCount]
  double* C = R + 8 * S::kCount;   // [8][kStride]
  double* T = C + 8 * S::kStride;  // [8][kTerms][2]
  const int k = u.inner_by_level[first + blockIdx.x];
  const KdNode& parent = u.nodes[k];
  const int children = parent.num_children;
  const double* from = u.multipoles + static_cast<long long>(parent.first_child) * S::kStride;
  for (int j = threadIdx.x; j < children * S::kStride; j += blockDim.x) C[j] = from[j];
  if (threadIdx.x < children) {
    const KdNode& child = u.nodes[parent.first_child + threadIdx.x];
    mp::regular_harmonics(P, child.center[0] - parent.center[0], child.center[1] - parent.center[1],
                          child.center[2] - parent.center[2], R + threadIdx.x * S::kCount);
  }
  __syncthreads();
  // Consecutive threads take consecutive children of a term, and each thread terms far apart, so
  // that the long terms (high n) spread over the threads.
  for (int i = threadIdx.x; i < children * S::kTerms; i += blockDim.x) {
    const int t = i / children, c = i - t * children;
    int e, n, m;
    m2m_term_of<P>(t, e, n, m);
    const auto term =
        mp::unchecked::m2m_term(n, m, R + c * S::kCount, C + c * S::kStride + e * S::kCount);
    T[2 * (c * S::kTerms + t)] = term.re;
    T[2 * (c * S::kTerms + t) + 1] = term.im;
  }
  __syncthreads();
  double* out = u.multipoles + static_cast<long long>(k) * S::kStride;
  for (int t = threadIdx.x; t < S::kTerms; t += blockDim.x) {
    int e, n, m;
    m2m_term_of<P>(t, e, n, m);
    double re = 0, im = 0;
    for (int c = 0; c < children; ++c) {
      re += T[2 * (c * S::kTerms + t)];
      im += T[2 * (c * S::kTerms + t) + 1];
    }
    out[e * S::kCount + mp::cos_index(n, m)] = re;
    if (m > 0) out[e * S::kCount + mp::sin_index(n, m)] = im;
  }
}

template <int P>
void launch_m2m(const UpwardPass& u, int first, int count, cudaStream_t stream) {
  using S = M2mShared<P>;
  if (S::kBytes > 48 * 1024)  // above 48 KB a kernel asks for its shared memory (per device)
    VORTEX_CUDA_CHECK(cudaFuncSetAttribute(
        m2m_kernel<P>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(S::kBytes)));
  m2m_kernel<P><<<count, S::kThreads, S::kBytes, stream>>>(u, first);
  VORTEX_CUDA_CHECK_LAUNCH("m2m_kernel");
}

// M2V: one thread per slot of every node's velocity expansion (a few terms each), normalized by
// the node's scale (expansion_scale.hpp) and converted to T; the first slot's thread also writes
// the node's center and 1 / its scale.
template <int P, class T>
__global__ void m2v_kernel(UpwardPass u) {
  constexpr int slots = mp::velocity_slot_count(P);
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int k = static_cast<int>(t / slots),
            j = static_cast<int>(t - static_cast<long long>(k) * slots);
  if (k >= u.num_nodes) return;
  double slot[4];
  mp::velocity_slot(P, u.multipoles + static_cast<long long>(k) * mp::multipole_size(P), j, slot);
  const int e = mp::scale_exponent(u.nodes[k].radius);
  mp::normalize_velocity_slot(j, e, slot);
  Vec4<T>* out = static_cast<Vec4<T>*>(u.expansions) + static_cast<long long>(k) * slots + j;
  *out = {T(slot[0]), T(slot[1]), T(slot[2]), T(slot[3])};
  if (j != 0) return;
  const double* o = u.nodes[0].center;
  const double* c = u.nodes[k].center;
  static_cast<Vec4<T>*>(u.centers)[k] = {T(c[0] - o[0]), T(c[1] - o[1]), T(c[2] - o[2]),
                                         T(mp::inverse_scale(e))};
}

template <int P>
void run_upward_pass(const UpwardPass& u, cudaStream_t stream) {
  if (u.num_leaves > 0) {
    p2m_kernel<P><<<u.num_leaves, P2mShape<P>::kThreads, 0, stream>>>(u);
    VORTEX_CUDA_CHECK_LAUNCH("p2m_kernel");
  }
  for (int level = u.num_levels - 1; level >= 0; --level) {
    const int first = u.level_start[level];
    const int count = u.level_start[level + 1] - first;
    if (count == 0) continue;
    launch_m2m<P>(u, first, count, stream);
  }
  constexpr int threads = 256;
  const long long slots = static_cast<long long>(u.num_nodes) * mp::velocity_slot_count(P);
  const int blocks = static_cast<int>((slots + threads - 1) / threads);
  if (u.arithmetic == Arithmetic::Double)
    m2v_kernel<P, double><<<blocks, threads, 0, stream>>>(u);
  else
    m2v_kernel<P, float><<<blocks, threads, 0, stream>>>(u);
  VORTEX_CUDA_CHECK_LAUNCH("m2v_kernel");
}

}  // namespace

void launch_upward_pass(const UpwardPass& u, cudaStream_t stream) {
  if (u.num_nodes == 0) return;
  dispatch_order(u.order, "upward pass", [&](auto p) { run_upward_pass<p()>(u, stream); });
}

}  // namespace vortex::gpu
