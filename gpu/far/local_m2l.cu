// M2L of the local expansions on the device by rotation (multipole/m2l_rotation.hpp; the host's
// M2L sums the same steps in SIMD lanes): one block a chunk of kLocalChunk translations into one
// target node, one warp a translation. The warp's lanes take the rows of every degree at once in
// each step: turn about z, W^T, turn, W, the translation along z, and back.

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

// A warp's shared memory: two buffers of the three components of degrees 0..q, the turns'
// cos and sin of m phi and m theta, and the powers of 1 / rho-hat (the cos of m phi then holds the
// translation's factor in the chunk's sum).
template <class T>
struct RotatedRoom {
  int size;  // 3 (q + 1)^2
  __host__ __device__ explicit RotatedRoom(int q) : size(3 * mp::coefficient_count(q)) {}
  __host__ __device__ int warp_slot() const { return 2 * size + 5 * kAngles; }
  // The slots, then each warp's scales 2^-en (double), then the exponents.
  __host__ __device__ std::size_t slot_bytes() const {
    return (sizeof(T) * std::size_t(kWarps) * warp_slot() + 7) / 8 * 8;
  }
  __host__ __device__ std::size_t bytes() const {
    return slot_bytes() + sizeof(double) * kWarps * kAngles + sizeof(int) * kWarps;
  }
};

// Turns every (cos, sin) pair of orders m >= 1 of degrees 0..top by m a: x[e count + j], with
// cos(m a) = c[m] and sin(m a) = sign s[m].
template <class T>
__device__ void turn(const rot::Tables& tab, int top, int count, T* x, const T* c, const T* s,
                     T sign, int lane) {
  const int pairs = top * (top + 1) / 2;  // degrees 1..top, orders 1..n
  for (int i = lane; i < 3 * pairs; i += 32) {
    const int e = i / pairs, j = __ldg(tab.pair + i - e * pairs);
    const int n = __ldg(tab.degree + j), m = j - n * n;
    T* v = x + e * count + j;
    const T cm = c[m], sm = sign * s[m], a = v[0], b = v[n];
    v[0] = cm * a - sm * b;
    v[n] = sm * a + cm * b;
  }
}

// y = W x (or W^T x) for degrees 0..top, the rows of all degrees over the lanes, each row's
// entries once for the three components; row j of degree n times power[n + shift] when given.
template <class T>
__device__ void apply_w(const rot::Tables& tab, bool transpose, int top, int count, const T* x,
                        T* y, const T* power, int shift, int lane) {
  const int* start = transpose ? tab.wt_start : tab.w_start;
  const short* col = transpose ? tab.wt_col : tab.w_col;
  const double* val = transpose ? tab.wt_val : tab.w_val;
  for (int j = lane; j < mp::coefficient_count(top); j += 32) {
    const int n = __ldg(tab.degree + j), o = n * n;
    T a0 = T(0), a1 = T(0), a2 = T(0);
    for (int k = __ldg(start + j), end = __ldg(start + j + 1); k < end; ++k) {
      const T w = static_cast<T>(__ldg(val + k));
      const int c = o + __ldg(col + k);
      a0 += w * x[c], a1 += w * x[count + c], a2 += w * x[2 * count + c];
    }
    const T f = power ? power[n + shift] : T(1);
    y[j] = a0 * f, y[count + j] = a1 * f, y[2 * count + j] = a2 * f;
  }
}

// Chunk c of the M2L lists into partials[c]. Translation j by t = target centre - source centre
// is summed at the scale b = 2^e >= |t| (multipole/expansion_scale.hpp): the moments of degree n
// times b^-n and 1 / rho-hat = b / |t| in [1, 2) keep float in range however deep the trees.
// The chunk's sums are added in translation order at its nearest translation's scale and stored
// in double.
template <class T>
__global__ void __launch_bounds__(32 * kWarps) m2l_rotated_kernel(LocalField f) {
  extern __shared__ double shared[];
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
  T* X = slots + warp * room.warp_slot();
  T* Y = X + room.size;
  T *cp = Y + room.size, *sp = cp + kAngles, *ct = sp + kAngles, *st = ct + kAngles;
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
    // The moments, Schmidt-normalized, degree n times b^-n.
    const double* M = f.multipoles + static_cast<long long>(s) * mp::multipole_size(p);
    __syncwarp();
    for (int i = lane; i < 3 * countP; i += 32) {
      const int comp = i / countP, j = i - comp * countP;
      X[comp * countQ + j] =
          static_cast<T>(M[i] * __ldg(tab.nu + j) * scales[__ldg(tab.degree + j)]);
    }
    __syncwarp();
    turn(tab, p, countQ, X, cp, sp, T(-1), lane);
    __syncwarp();
    apply_w(tab, true, p, countQ, X, Y, static_cast<const T*>(nullptr), 0, lane);
    __syncwarp();
    turn(tab, p, countQ, Y, ct, st, T(-1), lane);
    __syncwarp();
    apply_w(tab, false, p, countQ, Y, X, power, 1, lane);  // times (1 / rho-hat)^(n + 1)
    __syncwarp();
    // Along z: Y's degree k, order l from X's degrees n >= l, times (1 / rho-hat)^k.
    for (int r = lane; r < detail::triangle(q); r += 32) {
      const int k = __ldg(tab.triangle_degree + r), m = __ldg(tab.triangle_order + r);
      const double* A = tab.axial + rot::axial_offset(m) + (k - m) * rot::axial_columns(m);
      for (int comp = 0; comp < 3; ++comp) {
        const T* Xc = X + comp * countQ;
        T cs = T(0), sn = T(0);
        for (int deg = m; deg <= p; ++deg) {
          const T a = static_cast<T>(__ldg(A + deg - m));
          cs += a * Xc[mp::cos_index(deg, m)];
          if (m > 0) sn += a * Xc[mp::sin_index(deg, m)];
        }
        Y[comp * countQ + mp::cos_index(k, m)] = cs * power[k];
        if (m > 0) Y[comp * countQ + mp::sin_index(k, m)] = sn * power[k];
      }
    }
    __syncwarp();
    apply_w(tab, true, q, countQ, Y, X, static_cast<const T*>(nullptr), 0, lane);
    __syncwarp();
    turn(tab, q, countQ, X, ct, st, T(1), lane);
    __syncwarp();
    apply_w(tab, false, q, countQ, X, Y, static_cast<const T*>(nullptr), 0, lane);
    __syncwarp();
    turn(tab, q, countQ, Y, cp, sp, T(1), lane);
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
  for (int i = threadIdx.x; i < 3 * countQ; i += blockDim.x) {
    const int j = i % countQ, k = __ldg(tab.degree + j);
    T sum = T(0);
    for (int w = 0; w < n; ++w) {
      const T* slot = slots + w * room.warp_slot();
      sum += slot[2 * room.size + k] * slot[room.size + i];
    }
    P[i] = ldexp(static_cast<double>(sum) * __ldg(tab.nu + j), -e0 * (k + 1));
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
