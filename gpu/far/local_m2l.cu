// M2L of the local expansions on the device by rotation (multipole/m2l_rotation.hpp; the host's
// M2L sums the same steps in SIMD lanes): one block a chunk of kLocalChunk translations into one
// target node, one warp a translation. The warp's lanes take the rows of every degree at once in
// each step: turn about z, W^T, turn, W, the translation along z, and back. The three components
// of a coefficient sit together, so that each matrix entry's column is one shared-memory load.

#include <algorithm>

#include "local_shared.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/multipole/expansion_scale.hpp"
#include "vortex/multipole/m2l_rotation.hpp"

namespace vortex::gpu {
namespace {

namespace mp = vortex::multipole;
namespace rot = vortex::multipole::rotation;

constexpr int kWarps = kLocalChunk;  // one warp a translation of the chunk
constexpr int kAngles = 2 * rot::kMaxDegree + 2;

// The three components of a coefficient: in float with a pad, one aligned shared-memory load;
// in double three loads (a pad would take a third more shared memory and fewer blocks an SM: the
// double M2L took 10 % longer with one).
template <class T>
struct Components {
  T x, y, z;
};
template <>
struct alignas(16) Components<float> {
  float x, y, z, pad;
};

// The entries of W (or W^T) and the axial factors in the arithmetic T.
template <class T>
__device__ __forceinline__ const rot::Entry<T>* entries(const rot::Tables& tab, bool transpose);
template <>
__device__ __forceinline__ const rot::Entry<float>* entries<float>(const rot::Tables& tab,
                                                                   bool transpose) {
  return transpose ? tab.wt_float : tab.w_float;
}
template <>
__device__ __forceinline__ const rot::Entry<double>* entries<double>(const rot::Tables& tab,
                                                                     bool transpose) {
  return transpose ? tab.wt_double : tab.w_double;
}
__device__ __forceinline__ float axial_factor(const rot::Tables& tab, int i, float) {
  return __ldg(tab.axial_float + i);
}
__device__ __forceinline__ double axial_factor(const rot::Tables& tab, int i, double) {
  return __ldg(tab.axial + i);
}

// A warp's shared memory: two buffers of degrees 0..q (three components a coefficient), the
// turns' cos and sin of m phi and m theta, and the powers of 1 / rho-hat (the cos of m phi then
// holds the translation's factor in the chunk's sum).
template <class T>
struct RotatedRoom {
  int count;  // (q + 1)^2
  __host__ __device__ explicit RotatedRoom(int q) : count(mp::coefficient_count(q)) {}
  // T per coefficient in a buffer.
  static constexpr int kWidth = sizeof(Components<T>) / sizeof(T);
  // In T: the two buffers, then the angles and powers (a multiple of 4, so that every warp's
  // buffers keep the alignment of Components<T>).
  __host__ __device__ int warp_slot() const {
    return 2 * kWidth * count + (5 * kAngles + 3) / 4 * 4;
  }
  // The slots, then each warp's scales 2^-en (double), then the exponents.
  __host__ __device__ std::size_t slot_bytes() const {
    return (sizeof(T) * std::size_t(kWarps) * warp_slot() + 7) / 8 * 8;
  }
  __host__ __device__ std::size_t bytes() const {
    return slot_bytes() + sizeof(double) * kWarps * kAngles + sizeof(int) * kWarps;
  }
};

// Turns every (cos, sin) pair of orders m >= 1 of degrees 0..top by m a, with cos(m a) = c[m]
// and sin(m a) = sign s[m].
template <class T>
__device__ void turn(const rot::Tables& tab, int top, Components<T>* x, const T* c, const T* s,
                     T sign, int lane) {
  for (int i = lane; i < top * (top + 1) / 2; i += 32) {  // degrees 1..top, orders 1..n
    const int j = __ldg(tab.pair + i), n = __ldg(tab.degree + j), m = j - n * n;
    const T cm = c[m], sm = sign * s[m];
    const Components<T> a = x[j], b = x[j + n];
    x[j] = {cm * a.x - sm * b.x, cm * a.y - sm * b.y, cm * a.z - sm * b.z};
    x[j + n] = {sm * a.x + cm * b.x, sm * a.y + cm * b.y, sm * a.z + cm * b.z};
  }
}

// y = W x (or W^T x) for degrees 0..top, the rows of all degrees over the lanes, an entry and
// its column's three components in one load each; row j of degree n times power[n + shift] when
// given.
template <class T>
__device__ void apply_w(const rot::Tables& tab, bool transpose, int top, const Components<T>* x,
                        Components<T>* y, const T* power, int shift, int lane) {
  const int* start = transpose ? tab.wt_start : tab.w_start;
  const rot::Entry<T>* entry = entries<T>(tab, transpose);
  for (int j = lane; j < mp::coefficient_count(top); j += 32) {
    T a0 = T(0), a1 = T(0), a2 = T(0);
    for (int k = __ldg(start + j), end = __ldg(start + j + 1); k < end; ++k) {
      const rot::Entry<T> w = entry[k];
      const Components<T> v = x[w.column];
      a0 += w.value * v.x, a1 += w.value * v.y, a2 += w.value * v.z;
    }
    const T f = power ? power[__ldg(tab.degree + j) + shift] : T(1);
    y[j] = {a0 * f, a1 * f, a2 * f};
  }
}

// Chunk c of the M2L lists into partials[c]. Translation j by t = target centre - source centre
// is summed at the scale b = 2^e >= |t| (multipole/expansion_scale.hpp): the moments of degree n
// times b^-n and 1 / rho-hat = b / |t| in [1, 2) keep float in range however deep the trees.
// The chunk's sums are added in translation order at its nearest translation's scale and stored
// in double.
template <class T>
__global__ void __launch_bounds__(32 * kWarps) m2l_rotated_kernel(LocalField f) {
  extern __shared__ __align__(32) double shared[];
  const LocalLists& l = f.lists;
  const rot::Tables& tab = *f.rotation;
  const int c = blockIdx.x;
  const int t = detail::piece_at(l.chunk_offsets, l.num_nodes, c);
  const int p = f.order, q = p + 2, top = q;
  const int first = (c - l.chunk_offsets[t]) * kLocalChunk;
  const int n = min(kLocalChunk, l.m2l_count[t] - first);
  const int countP = mp::coefficient_count(p), countQ = mp::coefficient_count(q);
  const RotatedRoom<T> room(q);
  T* slots = reinterpret_cast<T*>(shared);
  double* all_scales = shared + room.slot_bytes() / sizeof(double);
  int* exponents = reinterpret_cast<int*>(all_scales + kWarps * kAngles);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  double* scales = all_scales + warp * kAngles;  // 2^-en, n = 0..p
  T* slot = slots + warp * room.warp_slot();
  Components<T>* X = reinterpret_cast<Components<T>*>(slot);
  Components<T>* Y = X + countQ;
  T *cp = slot + 2 * RotatedRoom<T>::kWidth * countQ, *sp = cp + kAngles, *ct = sp + kAngles,
    *st = ct + kAngles;
  T* power = st + kAngles;  // (1 / rho-hat)^i, i = 0 .. q + 1
  if (warp < n) {
    const int s = l.m2l[l.slot_offsets[t] + first + warp];
    const KdNode& target = l.targets[t];
    const KdNode& source = l.sources[s];
    const double dx = target.center[0] - source.center[0], dy = target.center[1] - source.center[1],
                 dz = target.center[2] - source.center[2];
    const double rxy = sqrt(dx * dx + dy * dy), rho = sqrt(rxy * rxy + dz * dz);
    const int e = mp::scale_exponent(rho);
    if (lane == 0) exponents[warp] = e;
    const double phi = atan2(dy, dx), theta = atan2(rxy, dz);
    const double inv = 1.0 / (rho * mp::inverse_scale(e));
    for (int m = lane; m <= p; m += 32) scales[m] = ldexp(1.0, -e * m);
    for (int m = lane; m <= top + 1; m += 32) {
      double a, b;
      sincos(m * phi, &b, &a);
      cp[m] = static_cast<T>(a), sp[m] = static_cast<T>(b);
      sincos(m * theta, &b, &a);
      ct[m] = static_cast<T>(a), st[m] = static_cast<T>(b);
      power[m] = static_cast<T>(pow(inv, m));
    }
    __syncwarp();
    // The moments, Schmidt-normalized, degree n times b^-n.
    const double* M = f.multipoles + static_cast<long long>(s) * mp::multipole_size(p);
    for (int j = lane; j < countP; j += 32) {
      const double g = __ldg(tab.nu + j) * scales[__ldg(tab.degree + j)];
      X[j] = {static_cast<T>(M[j] * g), static_cast<T>(M[countP + j] * g),
              static_cast<T>(M[2 * countP + j] * g)};
    }
    __syncwarp();
    turn(tab, p, X, cp, sp, T(-1), lane);
    __syncwarp();
    apply_w(tab, true, p, X, Y, static_cast<const T*>(nullptr), 0, lane);
    __syncwarp();
    turn(tab, p, Y, ct, st, T(-1), lane);
    __syncwarp();
    apply_w(tab, false, p, Y, X, power, 1, lane);  // times (1 / rho-hat)^(n + 1)
    __syncwarp();
    // Along z: Y's degree k, order m from X's degrees >= m, times (1 / rho-hat)^k.
    for (int r = lane; r < detail::triangle(q); r += 32) {
      const int k = __ldg(tab.triangle_degree + r), m = __ldg(tab.triangle_order + r);
      const int A = rot::axial_offset(m) + (k - m) * rot::axial_columns(m) - m;
      Components<T> cs = {T(0), T(0), T(0)}, sn = cs;
      for (int deg = m; deg <= p; ++deg) {
        const T a = axial_factor(tab, A + deg, T(0));
        const Components<T> u = X[mp::cos_index(deg, m)];
        cs.x += a * u.x, cs.y += a * u.y, cs.z += a * u.z;
        if (m > 0) {
          const Components<T> v = X[mp::sin_index(deg, m)];
          sn.x += a * v.x, sn.y += a * v.y, sn.z += a * v.z;
        }
      }
      const T g = power[k];
      Y[mp::cos_index(k, m)] = {cs.x * g, cs.y * g, cs.z * g};
      if (m > 0) Y[mp::sin_index(k, m)] = {sn.x * g, sn.y * g, sn.z * g};
    }
    __syncwarp();
    apply_w(tab, true, q, Y, X, static_cast<const T*>(nullptr), 0, lane);
    __syncwarp();
    turn(tab, q, X, ct, st, T(1), lane);
    __syncwarp();
    apply_w(tab, false, q, X, Y, static_cast<const T*>(nullptr), 0, lane);
    __syncwarp();
    turn(tab, q, Y, cp, sp, T(1), lane);
  }
  __syncthreads();
  // Translation j's degree k is at scale b_j^-(k+1): summed at the nearest's (e0 <= e_j), times
  // 2^-(e_j - e0)(k+1) <= 1, in order; then nu and 2^-e0(k+1) in double.
  int e0 = exponents[0];
  for (int j = 1; j < n; ++j) e0 = min(e0, exponents[j]);
  T* factor = cp;  // the warp's angles are spent: its factors 2^-(e_w - e0)(k+1), k = 0..q
  if (warp < n)
    for (int k = lane; k <= q; k += 32)
      factor[k] = static_cast<T>(ldexp(1.0, -(exponents[warp] - e0) * (k + 1)));
  __syncthreads();
  double* P = f.partials + static_cast<long long>(c) * mp::local_size(q);
  for (int j = threadIdx.x; j < countQ; j += blockDim.x) {
    const int k = __ldg(tab.degree + j);
    T sx = T(0), sy = T(0), sz = T(0);
    for (int w = 0; w < n; ++w) {
      const T* other = slots + w * room.warp_slot();
      const T g = other[2 * RotatedRoom<T>::kWidth * countQ + k];
      const Components<T> v = reinterpret_cast<const Components<T>*>(other)[countQ + j];
      sx += g * v.x, sy += g * v.y, sz += g * v.z;
    }
    const double g = __ldg(tab.nu + j);
    P[j] = ldexp(static_cast<double>(sx) * g, -e0 * (k + 1));
    P[countQ + j] = ldexp(static_cast<double>(sy) * g, -e0 * (k + 1));
    P[2 * countQ + j] = ldexp(static_cast<double>(sz) * g, -e0 * (k + 1));
  }
}

template <class T>
void launch_rotated(const LocalField& f, cudaStream_t stream) {
  const RotatedRoom<T> room(f.order + 2);
  const std::size_t bytes = room.bytes();
  VORTEX_CUDA_CHECK(cudaFuncSetAttribute(
      m2l_rotated_kernel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  m2l_rotated_kernel<T><<<f.num_chunks, 32 * kWarps, bytes, stream>>>(f);
  VORTEX_CUDA_CHECK_LAUNCH("local m2l_rotated_kernel");
}

}  // namespace

void launch_local_m2l(const LocalField& f, cudaStream_t stream) {
  if (f.num_chunks == 0) return;
  if (f.float_terms)
    launch_rotated<float>(f, stream);
  else
    launch_rotated<double>(f, stream);
}

}  // namespace vortex::gpu
