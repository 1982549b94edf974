#pragma once
// Pieces shared by the local expansions' kernels (local_field.cu, local_l2p.cu).

#include "tree/cuts.cuh"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/multipole/l2l.hpp"
#include "vortex/multipole/solid_harmonics.hpp"

namespace vortex::gpu::detail {

// Coefficients (k, m), 0 <= m <= k <= q: (q + 1)(q + 2) / 2 of them, r = k (k + 1) / 2 + m.
__host__ __device__ __forceinline__ int triangle(int q) {
  return (q + 1) * (q + 2) / 2;
}
__device__ __forceinline__ void degree_order(int r, int& k, int& m) {
  k = static_cast<int>((sqrt(8.0 * r + 1.0) - 1.0) / 2.0);
  while (k * (k + 1) / 2 > r) --k;
  while ((k + 1) * (k + 2) / 2 <= r) ++k;
  m = r - k * (k + 1) / 2;
}

// The irregular harmonics of d up to degree P as complex values of every order (re, im as
// multipole::detail::signed_harmonics writes them, in T), by the 32 lanes of one warp: the rows in
// the degree-major real layout in `rows` (double; a row's entries over the lanes), then each row's
// orders. `rows` may be `im` itself in double: a row is read whole before it is written.
template <class T>
__device__ __forceinline__ void warp_signed_harmonics(int P, double dx, double dy, double dz,
                                                      double* rows, T* re, T* im, int lane) {
  namespace mp = vortex::multipole;
  double low[4];  // degrees 0 and 1
  const mp::IrregularRows<double> irregular(dx, dy, dz, low);
  if (lane < 4) rows[lane] = low[lane];
  __syncwarp();
  for (int n = 2; n <= P; ++n) {
    irregular.row_part(n, rows, lane, 32);
    __syncwarp();
  }
  if (static_cast<void*>(rows) != static_cast<void*>(im)) {  // apart: every entry at once
    for (int i = lane; i < (P + 1) * (P + 1); i += 32) {
      const int n = static_cast<int>(sqrtf(i + 0.5f));  // i's degree: n^2 <= i < (n + 1)^2
      const mp::detail::Complex<double> c = mp::detail::signed_order(rows, n, i - n * n - n);
      re[i] = static_cast<T>(c.re);
      im[i] = static_cast<T>(c.im);
    }
    __syncwarp();
    return;
  }
  for (int n = 0; n <= P; ++n) {
    // Row n's real entries (cos at n^2 + m, sin at n^2 + n + m) become its orders -n..n.
    mp::detail::Complex<double> c[3];  // 2n + 1 <= 69 orders over 32 lanes
    for (int h = 0; h < 3; ++h) {
      const int j = lane + 32 * h - n;
      c[h] = j <= n ? mp::detail::signed_order(rows, n, j) : mp::detail::Complex<double>{0, 0};
    }
    __syncwarp();
    for (int h = 0; h < 3; ++h) {
      const int j = lane + 32 * h - n;
      if (j > n) continue;
      re[n * n + n + j] = static_cast<T>(c[h].re);
      im[n * n + n + j] = static_cast<T>(c[h].im);
    }
    __syncwarp();
  }
}

// Adds the stored expansion of node `from` shifted to node t's centre to L (the whole block
// calls; R holds coefficient_count(q) doubles of shared memory).
__device__ __forceinline__ void shift_local(const LocalLists& l, const LocalField& f, int from,
                                            int t, double* R, double* L) {
  namespace mp = vortex::multipole;
  const int q = f.order + 2, size = mp::local_size(q), count = mp::coefficient_count(q);
  const KdNode& a = l.targets[from];
  const KdNode& b = l.targets[t];
  if (threadIdx.x == 0)
    mp::regular_harmonics(q, b.center[0] - a.center[0], b.center[1] - a.center[1],
                          b.center[2] - a.center[2], R);
  __syncthreads();
  const double* parent = f.locals + static_cast<long long>(l.stored_index[from]) * size;
  const int K = triangle(q);
  for (int o = threadIdx.x; o < 3 * K; o += blockDim.x) {
    const int e = o / K;
    int n, m;
    degree_order(o - e * K, n, m);
    mp::detail::add_shifted_term(n, m, mp::detail::l2l_coefficient(q, n, m, R, parent + e * count),
                                 L + e * count);
  }
}

}  // namespace vortex::gpu::detail
