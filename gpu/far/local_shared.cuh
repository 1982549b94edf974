#pragma once
// Pieces shared by the local expansions' kernels (local_m2l.cu, local_field.cu, local_l2p.cu).

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
