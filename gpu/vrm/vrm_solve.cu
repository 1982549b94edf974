// The owners' solves of the VRM's first round on the GPU (vrm_kernels.hpp): their neighbour
// lists, the dual solve's first iterations (the owners taken by their neighbour counts), the
// unfinished owners resumed, the fallback's solves, and the free lattice nodes of the owners
// without a solution.

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>

#include "vortex/gpu/check.hpp"
#include "vortex/math/vrm_dual.hpp"
#include "vortex/math/vrm_nodes.hpp"
#include "vrm_kernels.hpp"

namespace vortex::gpu::vrm_kernels {
namespace {

// Owner t's solve between iterations, saved for another kernel to take up: its multipliers, the
// regularization's scale, its iterations (-1: before its start).
__device__ void save(const RoundArrays& a, int t, int m, const vrm::DualSolve<10>& s) {
  a.outcome[t] = kUnfinished;
  a.sizes[t] = m;
  double* saved = a.saved + static_cast<std::size_t>(t) * kSaved;
  for (int k = 0; k < 10; ++k) saved[k] = s.lambda[k];
  saved[10] = s.scale;
  saved[11] = s.started ? s.it : -1;
}

// Owner t's solve needs a step of the fallback, which the first two kernels leave out (it would
// cost their threads registers): saved where it stopped (lambda is that of the iteration that
// declined the step) and queued for vrm_fallback_kernel, which takes it up there with it.
__device__ void defer(const RoundArrays& a, int t, int m, const vrm::DualSolve<10>& s) {
  save(a, t, m, s);
  a.deferred[atomicAdd(a.deferred_count, 1)] = t;
}

// Owner t's saved solve, past its start, taken up in the caller's arrays (the offsets d set).
__device__ void restore(const RoundArrays& a, int t, int m, const double* d, const double* b,
                        const vrm::DualArrays& arrays, vrm::DualSolve<10>& s) {
  const double* saved = a.saved + static_cast<std::size_t>(t) * kSaved;
  for (int k = 0; k < 10; ++k) s.lambda[k] = saved[k];
  s.scale = saved[10];
  s.it = static_cast<int>(saved[11]);
  vrm::dual_resume<10>(m, d, b, arrays, s);
}

// Whether owner t's saved solve stopped before its start.
__device__ bool before_start(const RoundArrays& a, int t) {
  return a.saved[static_cast<std::size_t>(t) * kSaved + 11] < 0;
}

// An owner's moments: its own row where it has one.
__device__ const double* owner_moments(const RoundArrays& a, int t) {
  const std::int32_t row = a.moment_row ? a.moment_row[t] : -1;
  return row >= 0 ? a.own_moments + 10 * static_cast<std::size_t>(row) : a.moments.b;
}

// Particle j's position: one loaded, or one added since (indices n0 on).
__device__ void particle_at(const RoundArrays& a, std::int32_t j, double* p) {
  const bool added = j >= a.n0;
  p[0] = added ? a.ax[j - a.n0] : a.x[j];
  p[1] = added ? a.ay[j - a.n0] : a.y[j];
  p[2] = added ? a.az[j - a.n0] : a.z[j];
}

// The offsets of an owner's m neighbours nb (units of h) and its own place among them.
__device__ int owner_offsets(const RoundArrays& a, std::int32_t i, const std::int32_t* nb, int m,
                             double* d) {
  const double xi = a.x[i], yi = a.y[i], zi = a.z[i];
  int self = -1;
  for (int k = 0; k < m; ++k) {
    const std::int32_t j = nb[k];
    if (j == i) self = k;
    double p[3];
    particle_at(a, j, p);
    d[3 * k] = (p[0] - xi) * a.inv_h;
    d[3 * k + 1] = (p[1] - yi) * a.inv_h;
    d[3 * k + 2] = (p[2] - zi) * a.inv_h;
  }
  return self;
}

// A finished solve's outcome and, where solved, its fractions (its neighbours are in their slots).
__device__ void finish_owner(const RoundArrays& a, int t, int m, int self,
                             const vrm::DualArrays& arrays, vrm::Progress p,
                             const vrm::DualSolve<10>& s) {
  if (p == vrm::Progress::deferred) {
    a.outcome[t] = vrm::kRoundDeferred;
    return;
  }
  double res = 0;
  vrm::Outcome o = vrm::dual_outcome<10>(s, &res, nullptr);
  a.residual[t] = res;
  if (o == vrm::Outcome::solved) {  // the fractions, formed in the owner's slots
    double* out_f = a.slot_fractions + static_cast<std::size_t>(t) * kMax;
    vrm::dual_fractions<10>(m, {arrays.inv_c, out_f, arrays.dots, arrays.trial_dots}, s);
    o = vrm::own_share(m, self, out_f, o);
  }
  a.sizes[t] = m;  // the neighbours of a solved owner, or those whose free nodes are sought
  a.outcome[t] = o == vrm::Outcome::solved ? vrm::kRoundSolved : vrm::kRoundNoSolution;
}

// One thread per owner: its neighbours within R, ascending (kept in its slots: those loaded, then
// those added since, of higher index), and their count in its size (0, `crowded`, with more than
// the slots hold). A kernel of its own: its few registers let many threads hide the latency of
// the cells' reads, which the solves' many registers would not.
__global__ void vrm_list_kernel(GridView grid, GridView added, RoundArrays a, int count,
                                double radius, const double* __restrict__ distance) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const std::int32_t i = a.owners[t];
  std::int32_t* nb = a.slot_neighbors + static_cast<std::size_t>(t) * kMax;
  int m = 0;
  grid_query(grid, a.x[i], a.y[i], a.z[i], radius, [&](std::int32_t j) {
    if (distance != nullptr && distance[j] < 0) return;  // inside the body
    if (m < kMax) nb[m] = j;
    ++m;
  });
  grid_query(added, a.x[i], a.y[i], a.z[i], radius, [&](std::int32_t j) {
    if (m < kMax) nb[m] = a.n0 + j;
    ++m;
  });
  a.residual[t] = 0;
  if (m > kMax) {
    a.outcome[t] = vrm::kRoundCrowded;
    a.sizes[t] = 0;
    return;
  }
  for (int k = 1; k < m; ++k) {  // ascending, as the host's search
    const std::int32_t v = nb[k];
    int b = k - 1;
    for (; b >= 0 && nb[b] > v; --b) nb[b + 1] = nb[b];
    nb[b + 1] = v;
  }
  a.outcome[t] = kUnfinished;
  a.sizes[t] = m;
}

// Each owner's key for the order of the first iterations: its neighbour count as the lists left it
// (at most kMax; 0 for a crowded owner, which they skip), its place beside it.
__global__ void vrm_order_keys_kernel(RoundArrays a, int count, std::int32_t* __restrict__ keys,
                                      std::int32_t* __restrict__ places) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  keys[t] = a.sizes[t];
  places[t] = t;
}

// Bits of the sort's keys: neighbour counts 0 to kMax.
constexpr int kOrderBits = 7;
static_assert(kMax < (1 << kOrderBits), "a neighbour count must fit the sort's bits");

// One thread per listed owner, the owners taken in `order` (by neighbour count, so that the
// passes over the neighbours of a warp's owners are of like length): its neighbours' offsets in
// units of h; the shared dual solve's start and its first iterations. An owner not done by then is
// saved and queued for vrm_resume_kernel.
__global__ void vrm_round_kernel(RoundArrays a, int count, const std::int32_t* __restrict__ order) {
  const int at = blockIdx.x * blockDim.x + threadIdx.x;
  if (at >= count) return;
  const int t = order[at];
  if (a.outcome[t] == vrm::kRoundCrowded) return;
  const std::int32_t i = a.owners[t];
  const std::int32_t* nb = a.slot_neighbors + static_cast<std::size_t>(t) * kMax;
  const int m = a.sizes[t];
  a.sizes[t] = 0;
  double d[3 * kMax], inv_c[kMax], dots[kMax], trial[kMax];
  const int self = owner_offsets(a, i, nb, m, d);
  if (m == 0 || self < 0) {  // as vrm::solve_redistribution
    a.outcome[t] = vrm::kRoundNoSolution;
    a.sizes[t] = m;
    return;
  }
  const double* b = owner_moments(a, t);
  const vrm::DualArrays arrays{inv_c, nullptr, dots, trial};  // (the fractions: finish_owner)
  vrm::NoFallback fallback;
  vrm::DualSolve<10> s;
  vrm::Progress p = vrm::dual_start<10>(m, d, b, arrays, true, fallback, s);
  for (int k = 0; k < kFirstIterations && p == vrm::Progress::running; ++k)
    p = vrm::dual_iterate<10>(m, d, b, arrays, true, fallback, s);
  if (p == vrm::Progress::running) {
    save(a, t, m, s);
    a.queue[atomicAdd(a.queued, 1)] = t;
  } else if (p == vrm::Progress::deferred) {
    defer(a, t, m, s);
  } else {
    finish_owner(a, t, m, self, arrays, p, s);
  }
}

// The unfinished owners, one iteration after another: each thread takes the next queued owner as
// soon as its own is done, so that the threads of a warp iterate together whatever each owner
// needs. The order in which owners are taken does not change any owner's result.
__global__ void vrm_resume_kernel(RoundArrays a) {
  double d[3 * kMax], inv_c[kMax], dots[kMax], trial[kMax];
  const vrm::DualArrays arrays{inv_c, nullptr, dots, trial};  // (the fractions: finish_owner)
  vrm::NoFallback fallback;
  vrm::DualSolve<10> s;
  const int queued = *a.queued;
  int t = -1, m = 0, self = -1;
  const double* b = nullptr;
  for (;;) {
    if (t < 0) {  // the next owner, taken up where the first kernel left it
      const int at = atomicAdd(a.taken, 1);
      if (at >= queued) break;
      t = a.queue[at];
      m = a.sizes[t];
      self = owner_offsets(a, a.owners[t], a.slot_neighbors + static_cast<std::size_t>(t) * kMax, m,
                           d);
      b = owner_moments(a, t);
      a.sizes[t] = 0;
      restore(a, t, m, d, b, arrays, s);  // (the first kernel queues started solves)
    }
    const vrm::Progress p = vrm::dual_iterate<10>(m, d, b, arrays, true, fallback, s);
    if (p == vrm::Progress::running) continue;
    if (p == vrm::Progress::deferred)
      defer(a, t, m, s);
    else
      finish_owner(a, t, m, self, arrays, p, s);
    t = -1;
  }
}

// The owners whose solve needs the fallback's steps (vrm::SmallFallback, the host's steps too:
// the host's result to rounding), taken up where the first two kernels stopped them, each thread
// taking the next queued owner. Few owners need them; their own kernel keeps the others'
// registers. An owner not done within kFallbackIterations goes to the host (vrm::kRoundDeferred).
__global__ void vrm_fallback_kernel(RoundArrays a) {
  double d[3 * kMax], inv_c[kMax], dots[kMax], trial[kMax];
  const vrm::DualArrays arrays{inv_c, nullptr, dots, trial};  // (the fractions: finish_owner)
  vrm::SmallFallback<10> fallback;
  const int queued = *a.deferred_count;
  for (int at = atomicAdd(a.deferred_taken, 1); at < queued; at = atomicAdd(a.deferred_taken, 1)) {
    const int t = a.deferred[at];
    const int m = a.sizes[t];
    const int self =
        owner_offsets(a, a.owners[t], a.slot_neighbors + static_cast<std::size_t>(t) * kMax, m, d);
    const double* b = owner_moments(a, t);
    a.sizes[t] = 0;
    vrm::DualSolve<10> s;
    vrm::Progress p = vrm::Progress::running;
    if (before_start(a, t))
      p = vrm::dual_start<10>(m, d, b, arrays, true, fallback, s);
    else
      restore(a, t, m, d, b, arrays, s);
    for (int k = 0; k < kFallbackIterations && p == vrm::Progress::running; ++k)
      p = vrm::dual_iterate<10>(m, d, b, arrays, true, fallback, s);
    if (p == vrm::Progress::running) p = vrm::Progress::deferred;  // to the host
    finish_owner(a, t, m, self, arrays, p, s);
  }
}

// Where the owners left without a solution may take new particles: one thread per owner, its free
// lattice nodes (vortex/math/vrm_nodes.hpp) among its neighbours in its slots, as a mask of
// `words` words, listed at the next place of the list (the host reads them by owner). The host's
// proposals count every particle within R: where the lists left out the particles inside the
// body (`distance` given), an owner with one of them within R is left to the host.
__global__ void vrm_free_nodes_kernel(GridView grid, RoundArrays a, int count, double h,
                                      double radius, double hole,
                                      const double* __restrict__ distance, int words,
                                      std::int32_t* __restrict__ listed,
                                      std::uint64_t* __restrict__ masks, int* __restrict__ total) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count || a.outcome[t] != vrm::kRoundNoSolution) return;
  const std::int32_t i = a.owners[t];
  const std::int32_t* nb = a.slot_neighbors + static_cast<std::size_t>(t) * kMax;
  const double x = a.x[i], y = a.y[i], z = a.z[i];
  if (distance != nullptr) {
    bool left_out = false;
    grid_query(grid, x, y, z, radius, [&](std::int32_t j) { left_out |= distance[j] < 0; });
    if (left_out) return;
  }
  const vrm::NodeCube cube = vrm::node_cube(x, y, z, h, radius);
  std::uint64_t mask[vrm::kMaxNodeWords] = {};
  vrm::free_nodes(
      cube, x, y, z, h, radius, hole, a.sizes[t],
      [&](int q, double* p) { particle_at(a, nb[q], p); },
      [&](int bit, long, long, long, double, double, double) {
        mask[bit / 64] |= std::uint64_t{1} << (bit % 64);
      });
  const int at = atomicAdd(total, 1);
  listed[at] = t;
  for (int w = 0; w < words; ++w) masks[static_cast<std::size_t>(at) * words + w] = mask[w];
}

int blocks_for(int n) {
  return (n + kThreads - 1) / kThreads;
}

}  // namespace

void launch_solves(const SolveLaunch& l, const SolveEvents& e, cudaStream_t s) {
  const int n = l.count;
  vrm_list_kernel<<<blocks_for(n), kThreads, 0, s>>>(l.grid, l.added, l.arrays, n, l.radius,
                                                     l.distance);
  VORTEX_CUDA_CHECK_LAUNCH("vrm_list_kernel");
  VORTEX_CUDA_CHECK(cudaEventRecord(e.listed, s));
  vrm_order_keys_kernel<<<blocks_for(n), kThreads, 0, s>>>(l.arrays, n, l.order_keys, l.places);
  VORTEX_CUDA_CHECK_LAUNCH("vrm_order_keys_kernel");
  std::size_t bytes = l.order_temp_bytes;
  VORTEX_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      l.order_temp, bytes, l.order_keys, l.sorted_keys, l.places, l.order, n, 0, kOrderBits, s));
  vrm_round_kernel<<<blocks_for(n), kThreads, 0, s>>>(l.arrays, n, l.order);
  VORTEX_CUDA_CHECK_LAUNCH("vrm_round_kernel");
  VORTEX_CUDA_CHECK(cudaEventRecord(e.first_done, s));
  vrm_resume_kernel<<<l.resume_blocks, kThreads, 0, s>>>(l.arrays);
  VORTEX_CUDA_CHECK_LAUNCH("vrm_resume_kernel");
  VORTEX_CUDA_CHECK(cudaEventRecord(e.resumed, s));
  vrm_fallback_kernel<<<l.fallback_blocks, kThreads, 0, s>>>(l.arrays);
  VORTEX_CUDA_CHECK_LAUNCH("vrm_fallback_kernel");
  VORTEX_CUDA_CHECK(cudaEventRecord(e.fallen_back, s));
  if (l.node_words > 0) {
    vrm_free_nodes_kernel<<<blocks_for(n), kThreads, 0, s>>>(
        l.grid, l.arrays, n, l.h, l.radius, l.hole, l.distance, l.node_words, l.free_owner,
        l.free_nodes, l.free_count);
    VORTEX_CUDA_CHECK_LAUNCH("vrm_free_nodes_kernel");
  }
}

std::size_t order_temp_bytes(int count) {
  std::size_t bytes = 0;
  VORTEX_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, bytes, static_cast<const std::int32_t*>(nullptr),
      static_cast<std::int32_t*>(nullptr), static_cast<const std::int32_t*>(nullptr),
      static_cast<std::int32_t*>(nullptr), count, 0, kOrderBits));
  return bytes;
}

void resident_solve_blocks(int& resume_blocks, int& fallback_blocks) {
  int per_sm = 0, fallback_per_sm = 0, device = 0, sms = 0;
  VORTEX_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, vrm_resume_kernel, kThreads, 0));
  VORTEX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &fallback_per_sm, vrm_fallback_kernel, kThreads, 0));
  VORTEX_CUDA_CHECK(cudaGetDevice(&device));
  VORTEX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  resume_blocks = std::max(1, per_sm * sms);
  fallback_blocks = std::max(1, fallback_per_sm * sms);
}

}  // namespace vortex::gpu::vrm_kernels
