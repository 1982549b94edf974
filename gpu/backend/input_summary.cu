// Device particles checked and summarized in place (input_summary.hpp).

#include <algorithm>
#include <cstring>

#include "tree/reduce.cuh"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/input_summary.hpp"
#include "vortex/math/input_check.hpp"
#include "vortex/math/layout_grid.hpp"

namespace vortex::gpu {
namespace detail {
namespace {

constexpr int kThreads = kReduceThreads;
// words: [0] first bad source, [1] first bad target, [2..4] box minima, [5..7] box maxima, [8]
// the largest strength component's magnitude, [9] the largest sigma, [10] the smallest sigma
// (non-negative doubles order like their bits), [11..13] target minima, [14..16] target maxima.
constexpr int kWords = 17;
__host__ __device__ constexpr bool is_minimum(int w) {
  return w < 5 || (w >= 10 && w < 14);
}

__global__ void check_kernel(DeviceInput in, unsigned long long* words) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  double strength = 0, sigma = 0, min_sigma = 1e300;
  double tlo[3] = {1e300, 1e300, 1e300}, thi[3] = {-1e300, -1e300, -1e300};
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (long long i = first; i < in.num_sources; i += stride) {
    const double x = in.x[i], y = in.y[i], z = in.z[i];
    if (!input_check::source_ok(x, y, z, in.gx[i], in.gy[i], in.gz[i], in.sigma[i]))
      atomicMin(words, static_cast<unsigned long long>(i));
    const double p[3] = {x, y, z};
    for (int a = 0; a < 3; ++a) lo[a] = fmin(lo[a], p[a]), hi[a] = fmax(hi[a], p[a]);
    strength = fmax(strength, fmax(fabs(in.gx[i]), fmax(fabs(in.gy[i]), fabs(in.gz[i]))));
    sigma = fmax(sigma, in.sigma[i]);
    min_sigma = fmin(min_sigma, in.sigma[i]);
  }
  strength = block_reduce(strength, MaxOp{});
  sigma = block_reduce(sigma, MaxOp{});
  min_sigma = block_reduce(min_sigma, MinOp{});
  if (threadIdx.x == 0) {
    atomicMin(words + 10, static_cast<unsigned long long>(__double_as_longlong(min_sigma)));
    // NaN strengths are refused by the checks; their bits never reach the summary.
    atomicMax(words + 8, static_cast<unsigned long long>(__double_as_longlong(strength)));
    atomicMax(words + 9, static_cast<unsigned long long>(__double_as_longlong(sigma)));
  }
  for (long long i = first; i < in.num_targets; i += stride) {
    if (!input_check::target_ok(in.tx[i], in.ty[i], in.tz[i]))
      atomicMin(words + 1, static_cast<unsigned long long>(i));
    const double p[3] = {in.tx[i], in.ty[i], in.tz[i]};
    for (int a = 0; a < 3; ++a) tlo[a] = fmin(tlo[a], p[a]), thi[a] = fmax(thi[a], p[a]);
  }
  for (int a = 0; a < 3; ++a) {
    const double l = block_reduce(tlo[a], MinOp{}), h = block_reduce(thi[a], MaxOp{});
    if (threadIdx.x == 0) {
      atomicMin(words + 11 + a, order_bits(l));
      atomicMax(words + 14 + a, order_bits(h));
    }
  }
  for (int a = 0; a < 3; ++a) {
    const double l = block_reduce(lo[a], MinOp{}), h = block_reduce(hi[a], MaxOp{});
    if (threadIdx.x == 0) {
      atomicMin(words + 2 + a, order_bits(l));
      atomicMax(words + 5 + a, order_bits(h));
    }
  }
}

struct Grid {
  double lo[3], mid[3], scale;
  int k;
};

__global__ void layout_kernel(DeviceInput in, Grid g, unsigned* counts, double* sums) {
  double offsets = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < in.num_sources; i += stride) {
    const double dx = in.x[i] - g.mid[0], dy = in.y[i] - g.mid[1], dz = in.z[i] - g.mid[2];
    offsets += sqrt(dx * dx + dy * dy + dz * dz) / in.sigma[i];
    if (g.scale > 0)
      atomicAdd(counts + layout_grid::cell_of(in.x[i], in.y[i], in.z[i], g.lo, g.scale, g.k), 1u);
  }
  offsets = block_reduce(offsets, SumOp{});
  if (threadIdx.x == 0) atomicAdd(sums, offsets);
}

__global__ void occupancy_kernel(const unsigned* counts, long long cells, double* sums) {
  double occupied = 0, squares = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long c = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; c < cells;
       c += stride) {
    const double n = counts[c];
    occupied += n > 0 ? 1.0 : 0.0;
    squares += n * n;
  }
  occupied = block_reduce(occupied, SumOp{});
  squares = block_reduce(squares, SumOp{});
  if (threadIdx.x == 0) {
    atomicAdd(sums + 1, occupied);
    atomicAdd(sums + 2, squares);
  }
}

__global__ void coarse_pairs_kernel(const unsigned* counts, int k, double* sums) {
  const int kc = layout_grid::coarse_cells_per_side(k);
  const long long cells = static_cast<long long>(kc) * kc * kc;
  double pairs = 0;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long c = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; c < cells;
       c += stride) {
    const double m = layout_grid::coarse_count(counts, k, static_cast<std::size_t>(c));
    pairs += m * (m - 1);
  }
  pairs = block_reduce(pairs, SumOp{});
  if (threadIdx.x == 0) atomicAdd(sums + 3, pairs);
}

__global__ void reset_words_kernel(unsigned long long* words) {
  if (threadIdx.x < kWords) {
    const int w = threadIdx.x;
    words[w] = is_minimum(w) ? ~0ull : 0ull;
  }
}

int blocks_for(long long n) {
  return static_cast<int>(std::clamp<long long>((n + kThreads - 1) / kThreads, 1, 4096));
}

}  // namespace
}  // namespace detail

InputSummary InputSummarizer::summarize(const DeviceInput& in, cudaStream_t stream) {
  using namespace detail;
  unsigned long long* words = words_.reserve(kWords);
  unsigned long long* host_words = host_words_.reserve(kWords);
  reset_words_kernel<<<1, 32, 0, stream>>>(words);
  VORTEX_CUDA_CHECK_LAUNCH("reset_words_kernel");
  check_kernel<<<blocks_for(std::max(in.num_sources, in.num_targets)), kThreads, 0, stream>>>(
      in, words);
  VORTEX_CUDA_CHECK_LAUNCH("check_kernel");
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(host_words, words, kWords * sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost, stream));
  VORTEX_CUDA_CHECK(cudaStreamSynchronize(stream));
  InputSummary s;
  auto index = [](unsigned long long w) { return w == ~0ull ? -1ll : static_cast<long long>(w); };
  s.first_bad_source = index(host_words[0]);
  s.first_bad_target = index(host_words[1]);
  if (s.first_bad_source >= 0 || s.first_bad_target >= 0 || in.num_sources == 0) return s;
  auto from_bits = [](unsigned long long b) {
    constexpr unsigned long long sign = 1ull << 63;
    const unsigned long long raw = (b & sign) ? (b & ~sign) : ~b;
    double v;
    static_assert(sizeof v == sizeof raw, "double is 64 bits");
    std::memcpy(&v, &raw, sizeof v);
    return v;
  };
  auto raw = [](unsigned long long b) {
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
  };
  s.max_strength = raw(host_words[8]);
  s.max_sigma = raw(host_words[9]);
  s.min_sigma = raw(host_words[10]);
  for (int a = 0; a < 3; ++a) {
    s.target_lo[a] = from_bits(host_words[11 + a]);
    s.target_hi[a] = from_bits(host_words[14 + a]);
  }
  Grid g;
  for (int a = 0; a < 3; ++a) {
    s.lo[a] = from_bits(host_words[2 + a]);
    s.hi[a] = from_bits(host_words[5 + a]);
    g.lo[a] = s.lo[a];
    g.mid[a] = 0.5 * (s.lo[a] + s.hi[a]);
  }
  g.k = layout_grid::cells_per_side(static_cast<std::size_t>(in.num_sources));
  g.scale = in.num_sources < 2 ? 0.0 : layout_grid::cell_scale(g.k, s.lo, s.hi);
  const long long cells = static_cast<long long>(g.k) * g.k * g.k;
  unsigned* counts = counts_.reserve(cells);
  double* sums = sums_.reserve(4);
  double* host_sums = host_sums_.reserve(4);
  VORTEX_CUDA_CHECK(cudaMemsetAsync(counts, 0, cells * sizeof(unsigned), stream));
  VORTEX_CUDA_CHECK(cudaMemsetAsync(sums, 0, 4 * sizeof(double), stream));
  layout_kernel<<<blocks_for(in.num_sources), kThreads, 0, stream>>>(in, g, counts, sums);
  VORTEX_CUDA_CHECK_LAUNCH("layout_kernel");
  occupancy_kernel<<<blocks_for(cells), kThreads, 0, stream>>>(counts, cells, sums);
  VORTEX_CUDA_CHECK_LAUNCH("occupancy_kernel");
  const int kc = layout_grid::coarse_cells_per_side(g.k);
  coarse_pairs_kernel<<<blocks_for(static_cast<long long>(kc) * kc * kc), kThreads, 0, stream>>>(
      counts, g.k, sums);
  VORTEX_CUDA_CHECK_LAUNCH("coarse_pairs_kernel");
  VORTEX_CUDA_CHECK(
      cudaMemcpyAsync(host_sums, sums, 4 * sizeof(double), cudaMemcpyDeviceToHost, stream));
  VORTEX_CUDA_CHECK(cudaStreamSynchronize(stream));
  s.mean_offset_in_sigmas = host_sums[0] / static_cast<double>(in.num_sources);
  s.occupied = g.scale > 0 ? host_sums[1] : 0;
  s.squares = g.scale > 0 ? host_sums[2] : 0;
  s.cells_per_side = g.k;
  s.coarse_pairs = g.scale > 0 ? host_sums[3] : 0;
  return s;
}

}  // namespace vortex::gpu
