// M2L of the local expansions on the device by rotation (multipole/m2l_rotation.hpp; the host's
// M2L sums the same steps in SIMD lanes): one warp a chunk of up to kLocalChunk translations into
// one target node, one translation a lane, as the host's lanes. Every lane takes the same step at
// once, so the fixed matrices (W, packed by its parity blocks, and the axial factors) are warp-wide
// operands in constant memory, and each degree's turn is unrolled over W's pattern with the
// degree's coefficients in registers (one copy of that code a degree, both ways). A component at a
// time, the lanes' coefficients sit in shared memory, one column a lane:
//   0. (once a call, its own kernel) each source node's moments Schmidt-normalized and times a^-n
//      at the node's scale a = 2^es >= its radius (multipole/expansion_scale.hpp), in T;
//   1. the warp loads its sources' moments (coalesced, a source at a time);
//   2. each degree n turns onto the translation's axis (Z(-phi), W^T, Z(-theta), W) times
//      (a / |t|)^n, at most about 2 theta;
//   3. along z, each order of the local degrees k, times (b / |t|)^(k + 1), b = 2^e >= |t| the
//      translation's scale, so that b / |t| is in [1, 2);
//   4. each local degree k turns back (W^T, Z(theta), W, Z(phi)), times 2^-(e - e0)(k + 1) to the
//      chunk's nearest translation's scale e0;
//   5. the lanes' sums, in lane order, times nu and 2^-e0(k + 1) in double: the chunk's partial.
// Then a term M_n / |t|^(n + k + 1) is (Ms_n a^-n) (a / |t|)^n (b / |t|)^(k + 1) b^-(k + 1): no
// factor over- or underflows float however small or large the boxes.

#include <algorithm>
#include <climits>
#include <type_traits>
#include <utility>

#include "local_shared.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/multipole/expansion_scale.hpp"
#include "vortex/multipole/m2l_packed_w.hpp"
#include "vortex/multipole/m2l_rotation.hpp"

namespace vortex::gpu {
namespace {

namespace mp = vortex::multipole;
namespace rot = vortex::multipole::rotation;

static_assert(kLocalChunk == 32, "one translation a lane of a warp");
constexpr int kDegrees = rot::kMaxDegree + 1;
constexpr int kPacked = kM2lPackedEntries;
constexpr int kAxial = kM2lAxialFactors;
// A lane's column in the shared buffers: 33 words a coefficient, so that a lane reading its own
// column and a lane summing a row across the columns both meet every bank once.
constexpr int kStride = 33;

__constant__ float w_float[kPacked];
__constant__ double w_double[kPacked];
__constant__ float axial_float[kAxial];
__constant__ double axial_double[kAxial];

// Entry k of a constant table kept in float and in double, in T.
template <class T, int N>
__device__ __forceinline__ T in_t(const float (&f)[N], const double (&d)[N], int k) {
  if constexpr (std::is_same_v<T, float>)
    return f[k];
  else
    return d[k];
}
template <class T>
__device__ __forceinline__ T w_entry(int k) {
  return in_t<T>(w_float, w_double, k);
}
template <class T>
__device__ __forceinline__ T axial(int k) {
  return in_t<T>(axial_float, axial_double, k);
}

// cos and sin of m phi and m theta, m = 0..kMaxDegree, of a lane's translation: in registers in
// float; in double (twice the registers) in shared memory, one column a lane.
template <class T>
struct Angles {
  T v[4][kDegrees];  // cos m phi, sin m phi, cos m theta, sin m theta
  __device__ __forceinline__ T get(int which, int m) const { return v[which][m]; }
  __device__ __forceinline__ void set(int which, int m, T x) { v[which][m] = x; }
};
template <>
struct Angles<double> {
  double* base;  // the warp's angle buffer, offset by the lane
  __device__ __forceinline__ double get(int which, int m) const {
    return base[(which * kDegrees + m) * kStride];
  }
  __device__ __forceinline__ void set(int which, int m, double x) {
    base[(which * kDegrees + m) * kStride] = x;
  }
};
enum { kCosPhi, kSinPhi, kCosTheta, kSinTheta };

// A warp's shared memory in T: the moments of one component (turned in place), one degree of the
// local coefficients (the lanes' results before their sum), and (double) the angles.
template <class T>
struct Room {
  int p, q;
  __host__ __device__ int moments() const { return mp::coefficient_count(p) * kStride; }
  __host__ __device__ int locals() const { return (2 * q + 1) * kStride; }  // one degree
  __host__ __device__ int angles() const {
    return std::is_same_v<T, double> ? 4 * kDegrees * kStride : 0;
  }
  __host__ __device__ std::size_t bytes() const {
    return sizeof(T) * static_cast<std::size_t>(moments() + locals() + angles());
  }
};

// Turns the (cos, sin) pairs of orders 1..N of degree N by m a (the angle pair `which`, its sin
// times sign).
template <int N, class T>
__device__ __forceinline__ void turn(T (&x)[2 * N + 1], const Angles<T>& a, int which, T sign) {
#pragma unroll
  for (int m = 1; m <= N; ++m) {
    const T c = a.get(which, m), s = sign * a.get(which + 1, m);
    const T u = x[m], v = x[N + m];
    x[m] = c * u - s * v;
    x[N + m] = s * u + c * v;
  }
}

// y = W x (Transpose false) or W^T x on degree N, over W's pattern: each entry a constant operand.
// Both sum each output over the other index ascending, as the host's rows do.
template <int N, bool Transpose, class T>
__device__ __forceinline__ void apply_w(const T (&x)[2 * N + 1], T (&y)[2 * N + 1]) {
#pragma unroll
  for (int i = 0; i < 2 * N + 1; ++i) y[i] = T(0);
  int k = rot::packed_offset(N);
#pragma unroll
  for (int r = 0; r < 2 * N + 1; ++r)
#pragma unroll
    for (int c = 0; c < 2 * N + 1; ++c)
      if (rot::w_nonzero(N, r, c)) {
        const T w = w_entry<T>(k++);
        if constexpr (Transpose)
          y[c] += w * x[r];
        else
          y[r] += w * x[c];
      }
}

// Degree K of a lane's local coefficients along z from its turned moments S (order p): order o's
// cos and sin parts are the sums over degrees n >= o of A(n, K, o) S(n, o), times uk.
template <int K, class T>
__device__ __forceinline__ void along_z(const T* S, int p, T uk, T (&x)[2 * K + 1]) {
#pragma unroll
  for (int o = 0; o <= K; ++o) {
    T cs = T(0), sn = T(0);
    if (o <= p) {
      const int A = rot::axial_offset(o) + (K - o) * rot::axial_columns(o) - o;
      int at = mp::cos_index(o, o);  // cos part of (n, o); its sin part at + n
#pragma unroll 2
      for (int n = o; n <= p; at += 2 * n + 1, ++n) {
        const T w = axial<T>(A + n);
        cs += w * S[at * kStride];
        if (o > 0) sn += w * S[(at + n) * kStride];
      }
    }
    x[o] = cs * uk;
    if (o > 0) x[K + o] = sn * uk;
  }
}

// Degree N turned onto the translation's axis (forward: the lane's moments S in place, Z(-phi),
// W^T, Z(-theta), W) or, back, the local degree N formed along z from S (times uk) and turned back
// (W^T, Z(theta), W, Z(phi)) into the lane's staging column R; times `scale` either way. One copy
// of each degree's turn serves both ways.
template <int N, class T>
__device__ __forceinline__ void turn_degree(T* S, T* R, int p, bool back, T uk, const Angles<T>& a,
                                            T scale) {
  T x[2 * N + 1], y[2 * N + 1];
  if (back) {
    along_z<N>(S, p, uk, x);
  } else {
#pragma unroll
    for (int j = 0; j < 2 * N + 1; ++j) x[j] = S[(N * N + j) * kStride];
    turn<N>(x, a, kCosPhi, T(-1));
  }
  apply_w<N, true>(x, y);
  turn<N>(y, a, kCosTheta, back ? T(1) : T(-1));
  apply_w<N, false>(y, x);
  if (back) {
    turn<N>(x, a, kCosPhi, T(1));
#pragma unroll
    for (int j = 0; j < 2 * N + 1; ++j) R[j * kStride] = x[j] * scale;
  } else {
#pragma unroll
    for (int j = 0; j < 2 * N + 1; ++j) S[(N * N + j) * kStride] = x[j] * scale;
  }
}

// f(std::integral_constant<int, n>) for the runtime degree n < Count.
template <class F, int... D>
__device__ __forceinline__ void at_degree(int n, F&& f, std::integer_sequence<int, D...>) {
  ((n == D ? f(std::integral_constant<int, D>{}) : void()), ...);
}
template <int Count, class F>
__device__ __forceinline__ void at_degree(int n, F&& f) {
  at_degree(n, f, std::make_integer_sequence<int, Count>{});
}

// Step 0: each source node's moments, Schmidt-normalized and at its scale, in T.
template <class T>
__global__ void normalize_moments_kernel(LocalField f) {
  const rot::Tables& tab = *f.rotation;
  const int p = f.order, count = mp::coefficient_count(p), size = mp::multipole_size(p);
  T* out = static_cast<T*>(f.normalized);
  const long long total = static_cast<long long>(f.lists.num_sources) * size;
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const int s = static_cast<int>(i / size), j = static_cast<int>(i % size) % count;
    const int es = mp::scale_exponent(f.lists.sources[s].radius);
    out[i] = static_cast<T>(ldexp(f.multipoles[i] * __ldg(tab.nu + j), -es * tab.degree[j]));
  }
}

// Steps 1-5: chunk c of the M2L lists into partials[c], one warp a chunk; the warps of a block
// step through the degrees together (a barrier a degree), so that they read the same code.
// Degrees: the local degrees the kernel can take (q < Degrees), so that a low order's kernel holds
// fewer registers (more warps an SM).
template <class T, int Degrees>
__global__ void __launch_bounds__(256) m2l_rotated_kernel(LocalField f) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const LocalLists& l = f.lists;
  const rot::Tables& tab = *f.rotation;
  const int p = f.order, q = p + 2;
  const Room<T> room{p, q};
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  T* shared = reinterpret_cast<T*>(shared_bytes) +
              static_cast<std::size_t>(warp) * (room.moments() + room.locals() + room.angles());
  const int c = blockIdx.x * (blockDim.x / 32) + warp;
  const bool live = c < f.num_chunks;  // a warp past the last chunk only keeps step
  const int t = live ? detail::piece_at(l.chunk_offsets, l.num_nodes, c) : 0;
  const int first = live ? (c - l.chunk_offsets[t]) * kLocalChunk : 0;
  const int n = live ? min(kLocalChunk, l.m2l_count[t] - first) : 0;
  const int countP = mp::coefficient_count(p), countQ = mp::coefficient_count(q);
  T* moments = shared;
  T* locals = shared + room.moments();
  // The lane's translation (an empty lane: none, along z, at scale 1, no moments).
  const bool active = lane < n;
  const int s = active ? l.m2l[l.slot_offsets[t] + first + lane] : 0;
  double dx = 0, dy = 0, dz = 1, radius = 0;
  if (active) {
    const KdNode& target = l.targets[t];
    const KdNode& source = l.sources[s];
    dx = target.center[0] - source.center[0], dy = target.center[1] - source.center[1];
    dz = target.center[2] - source.center[2];
    radius = source.radius;
  }
  const double rxy = sqrt(dx * dx + dy * dy), rho = sqrt(rxy * rxy + dz * dz);
  const int e = mp::scale_exponent(rho);
  const int e0 = __reduce_min_sync(0xffffffffu, active ? e : INT_MAX);
  // a / |t| (a box of radius 0 has no moments beyond degree 0: 0, so that no power overflows)
  const T u1 = radius > 0 ? static_cast<T>(ldexp(1.0, mp::scale_exponent(radius)) / rho) : T(0);
  const T u2 = static_cast<T>(1.0 / (rho * mp::inverse_scale(e)));  // b / |t|
  Angles<T> a;
  if constexpr (std::is_same_v<T, double>) a.base = shared + room.moments() + room.locals() + lane;
  {
    const double cp = rxy > 0 ? dx / rxy : 1, sp = rxy > 0 ? dy / rxy : 0;
    const double ct = dz / rho, st = rxy / rho;
    double cm = 1, sm = 0, cn = 1, sn = 0;
#pragma unroll
    for (int m = 0; m < Degrees; ++m) {
      if (m > 0) {
        const double c1 = cm * cp - sm * sp, c2 = cn * ct - sn * st;
        sm = sm * cp + cm * sp, sn = sn * ct + cn * st;
        cm = c1, cn = c2;
      }
      a.set(kCosPhi, m, static_cast<T>(cm)), a.set(kSinPhi, m, static_cast<T>(sm));
      a.set(kCosTheta, m, static_cast<T>(cn)), a.set(kSinTheta, m, static_cast<T>(sn));
    }
  }
  const T* normalized = static_cast<const T*>(f.normalized);
  double* P = f.partials + static_cast<long long>(c) * mp::local_size(q);
  for (int comp = 0; comp < 3; ++comp) {
    __syncthreads();  // the last component's sums are read
    // 1. The moments, a source at a time over the lanes.
    for (int from = 0; from < kLocalChunk; ++from) {
      const int src = __shfl_sync(0xffffffffu, s, from);
      const T* M = normalized + static_cast<long long>(src) * mp::multipole_size(p) + comp * countP;
      for (int j = lane; j < countP; j += 32) moments[j * kStride + from] = from < n ? M[j] : T(0);
    }
    __syncwarp();
    // 2-5. Onto the axis degree by degree; then each local degree along z, back, and summed over
    // the lanes, a coefficient a lane.
    T power = T(1), uk = u2;  // (a / |t|)^n, (b / |t|)^(k + 1)
    for (int job = 0; job <= p + 1 + q; ++job) {
      const bool back = job > p;
      const int deg = back ? job - p - 1 : job;
      const T scale =
          back ? (active ? static_cast<T>(ldexp(1.0, -(e - e0) * (deg + 1))) : T(0)) : power;
      at_degree<Degrees>(deg, [&](auto D) {
        turn_degree<decltype(D)::value>(moments + lane, locals + lane, p, back, uk, a, scale);
      });
      if (back) {
        uk *= u2;
        __syncthreads();  // the degree's columns are written
        for (int r = lane; live && r < 2 * deg + 1; r += 32) {
          T sum = T(0);
          for (int w = 0; w < kLocalChunk; ++w) sum += locals[r * kStride + w];
          const int j = deg * deg + r;
          P[comp * countQ + j] =
              ldexp(static_cast<double>(sum) * __ldg(tab.nu + j), -e0 * (deg + 1));
        }
      } else {
        power *= u1;
      }
      __syncthreads();
    }
  }
}

template <class T, int Degrees>
void launch_m2l(const LocalField& f, std::size_t bytes, cudaStream_t stream) {
  // As many warps a block as fill the multiprocessor's shared memory (up to 8).
  const int warps = static_cast<int>(std::clamp<std::size_t>((227 << 10) / bytes, 1, 8));
  VORTEX_CUDA_CHECK(cudaFuncSetAttribute(m2l_rotated_kernel<T, Degrees>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(warps * bytes)));
  m2l_rotated_kernel<T, Degrees>
      <<<(f.num_chunks + warps - 1) / warps, 32 * warps, warps * bytes, stream>>>(f);
  VORTEX_CUDA_CHECK_LAUNCH("local m2l_rotated_kernel");
}

template <class T>
void launch_rotated(const LocalField& f, cudaStream_t stream) {
  const int q = f.order + 2;
  const Room<T> room{f.order, q};
  const long long values =
      static_cast<long long>(f.lists.num_sources) * mp::multipole_size(f.order);
  const int blocks = static_cast<int>(std::min<long long>((values + 255) / 256, 65536));
  normalize_moments_kernel<T><<<blocks, 256, 0, stream>>>(f);
  VORTEX_CUDA_CHECK_LAUNCH("local normalize_moments_kernel");
  // The smallest kernel that takes degree q (p <= 9, p <= 11, any).
  if (q < 12)
    launch_m2l<T, 12>(f, room.bytes(), stream);
  else if (q < 14)
    launch_m2l<T, 14>(f, room.bytes(), stream);
  else
    launch_m2l<T, kDegrees>(f, room.bytes(), stream);
}

}  // namespace

void upload_local_m2l_constants(const float* w_packed_float, const double* w_packed_double,
                                const float* axial_factors_float,
                                const double* axial_factors_double) {
  VORTEX_CUDA_CHECK(cudaMemcpyToSymbol(w_float, w_packed_float, sizeof(float) * kPacked));
  VORTEX_CUDA_CHECK(cudaMemcpyToSymbol(w_double, w_packed_double, sizeof(double) * kPacked));
  VORTEX_CUDA_CHECK(cudaMemcpyToSymbol(axial_float, axial_factors_float, sizeof(float) * kAxial));
  VORTEX_CUDA_CHECK(
      cudaMemcpyToSymbol(axial_double, axial_factors_double, sizeof(double) * kAxial));
}

void launch_local_m2l(const LocalField& f, cudaStream_t stream) {
  if (f.num_chunks == 0) return;
  if (f.float_terms)
    launch_rotated<float>(f, stream);
  else
    launch_rotated<double>(f, stream);
}

}  // namespace vortex::gpu
