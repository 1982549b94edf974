// Particle control's decisions on the GPU (vortex/gpu/particle_control.hpp).

#include <algorithm>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/particle_control.hpp"
#include "vortex/gpu/staging_ring.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/math/closest_panel.hpp"
#include "vortex/math/control_shares.hpp"

namespace vortex::gpu {

namespace {

constexpr int kThreads = 128;
// Pool entries a candidate may take on average; a candidate past the pool's end goes to the host.
constexpr int kPoolPerCandidate = 32;
// The receivers a crowded candidate (more than control::kSlots) may take in the second pass, in
// slots of global memory of its own.
constexpr int kCrowdedSlots = 256;

__device__ bool wall_within(const ControlParticles& p, int s, double r) {
  return p.wall != nullptr && !(p.wall[s] > r);
}

// The path from the particle at place s to the one at place t by the wall's signed distances, as
// the host takes it (bodies::path_by_distances): 1 blocked, 0 clear, -1 not decided by them.
__device__ int path_by_distances(const ControlParticles& p, int s, int t) {
  if (!p.solid) return -1;
  const GridView& g = p.grid;
  const double dx = g.x[t] - g.x[s], dy = g.y[t] - g.y[s], dz = g.z[t] - g.z[s];
  return bodies::path_by_distances(p.wall[s], p.wall[t], sqrt(dx * dx + dy * dy + dz * dz),
                                   p.body_scale);
}

// Whether the path from the particle at place s to the one at place t clears the wall by the
// tangent plane of s's closest panel (false where s has none).
__device__ bool clear_path(const ControlParticles& p, int s, int t) {
  const std::int32_t row = p.plane[s];
  if (row < 0) return false;
  const double* c = p.planes + 6 * row;
  const GridView& g = p.grid;
  return bodies::beyond_tangent_plane({g.x[s], g.y[s], g.z[s]}, {g.x[t], g.y[t], g.z[t]},
                                      {c[0], c[1], c[2]}, {c[3], c[4], c[5]}, p.body_scale);
}

__global__ void merge_kernel(ControlParticles p, double radius, std::int8_t* __restrict__ flags) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= static_cast<int>(p.grid.size)) return;
  const double si = p.strength[s];
  if (si < p.threshold) {
    flags[s] = control::kNoMerge;  // weak: a candidate anyway
    return;
  }
  const GridView& g = p.grid;
  const double xi[3] = {g.x[s], g.y[s], g.z[s]};
  const int i = g.index[s];
  const bool near_wall = wall_within(p, s, radius);
  bool found = false, unclear = false;  // a stronger one with a clear path; one without
  grid_query_places(g, xi[0], xi[1], xi[2], radius, [&](std::int32_t t) {
    if (found || t == s || p.strength[t] < p.threshold) return;
    const double xj[3] = {g.x[t], g.y[t], g.z[t]};
    if (!control::stronger(p.strength[t], xj, g.index[t], si, xi, i)) return;
    const int decided = near_wall ? path_by_distances(p, s, t) : 0;
    if (decided == 1) return;  // blocked: as the host's test
    if (decided == 0 || clear_path(p, s, t))
      found = true;
    else
      unclear = true;
  });
  flags[s] = found ? control::kMerge : (unclear ? control::kMergeOnHost : control::kNoMerge);
}

// One thread's receivers: caller indices and offsets (sorted by caller index), the solve's arrays,
// `slots` of each (in the thread's own memory, or a crowded candidate's in global memory).
struct Receivers {
  std::int32_t* index;
  double *d, *f, *inv_c, *dots, *trial;
  int slots;
  std::int32_t left;  // why collect refused (control::Left)
};

// The first pass's slots, in the thread's own memory.
struct LocalSlots {
  std::int32_t index[control::kSlots];
  double d[3 * control::kSlots];
  double f[control::kSlots], inv_c[control::kSlots], dots[control::kSlots], trial[control::kSlots];
  __device__ Receivers view() {
    return {index, d, f, inv_c, dots, trial, control::kSlots, control::kSolve};
  }
};

// The receivers within r of the particle at place s; -1 where the host must find them (more than
// the slots, or a path not cleared of the wall).
__device__ int collect(const ControlParticles& p, const std::uint8_t* candidate, int s, double r,
                       Receivers& w, control::ShareArrays& a) {
  const bool near_wall = wall_within(p, s, r);
  const GridView& g = p.grid;
  int m = 0;
  bool refused = false;
  grid_query_places(g, g.x[s], g.y[s], g.z[s], r, [&](std::int32_t t) {
    if (refused || candidate[t]) return;  // the particle itself among the candidates
    const int decided = near_wall ? path_by_distances(p, s, t) : 0;
    if (decided == 1) return;  // blocked: not a receiver, as on the host
    if (decided < 0 && !clear_path(p, s, t)) {
      w.left = control::kWall;
      refused = true;
      return;
    }
    if (m == w.slots) {
      w.left = control::kCrowded;
      refused = true;
      return;
    }
    w.index[m] = g.index[t];
    w.d[3 * m] = (g.x[t] - g.x[s]) / p.spacing;
    w.d[3 * m + 1] = (g.y[t] - g.y[s]) / p.spacing;
    w.d[3 * m + 2] = (g.z[t] - g.z[s]) / p.spacing;
    ++m;
  });
  if (refused) return -1;
  for (int q = 1; q < m; ++q) {  // ascending caller index, as the host's search returns them
    const std::int32_t key = w.index[q];
    const double d[3] = {w.d[3 * q], w.d[3 * q + 1], w.d[3 * q + 2]};
    int at = q;
    for (; at > 0 && w.index[at - 1] > key; --at) {
      w.index[at] = w.index[at - 1];
      for (int c = 0; c < 3; ++c) w.d[3 * at + c] = w.d[3 * (at - 1) + c];
    }
    w.index[at] = key;
    for (int c = 0; c < 3; ++c) w.d[3 * at + c] = d[c];
  }
  a = {w.d, w.f, w.inv_c, w.dots, w.trial};
  return m;
}

// Candidate s's receivers and fractions in w (the count in m); the result but for its place in
// the pools.
__device__ control::DeviceShares find_receivers(const ControlParticles& p,
                                                const std::uint8_t* candidate, int s, bool merging,
                                                double first_radius, Receivers& w, int& m) {
  vrm::SmallFallback<4> fallback;
  m = 0;
  bool signed_shares = false;
  const control::Shares found = control::find_shares(
      first_radius, merging,
      [&](double r, control::ShareArrays& a) { return collect(p, candidate, s, r, w, a); },
      fallback, m, signed_shares);
  control::DeviceShares result;
  if (found == control::Shares::none) result.count = 0;
  if (found == control::Shares::deferred) result.left = w.left;
  if (found == control::Shares::found) result = {0, m, signed_shares ? 1 : 0, control::kNotLeft};
  return result;
}

__global__ void shares_kernel(ControlParticles p, const std::int32_t* __restrict__ places,
                              const std::uint8_t* __restrict__ merging, int count,
                              const std::uint8_t* __restrict__ candidate, double first_radius,
                              control::DeviceShares* __restrict__ out,
                              std::int32_t* __restrict__ receivers, double* __restrict__ fractions,
                              int pool, int* __restrict__ used) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= count) return;
  LocalSlots slots;
  Receivers w = slots.view();
  int m = 0;
  control::DeviceShares result =
      find_receivers(p, candidate, places[k], merging[k] != 0, first_radius, w, m);
  if (result.count > 0) {
    const int first = atomicAdd(used, m);
    if (first + m <= pool) {
      for (int q = 0; q < m; ++q) {
        receivers[first + q] = w.index[q];
        fractions[first + q] = w.f[q];
      }
      result.first = first;
    } else {
      result = {0, -1, 0, control::kCrowded};
    }
  }
  out[k] = result;
}

// The second pass: the candidates the first left for more receivers than its slots (or than its
// pool held), listed in `crowded` (their rows of `places`), each with kCrowdedSlots of global
// memory from scratch (the same receivers and fractions as the first pass would find with more
// slots).
__global__ void crowded_kernel(ControlParticles p, const std::int32_t* __restrict__ places,
                               const std::uint8_t* __restrict__ merging,
                               const std::int32_t* __restrict__ crowded, int count,
                               const std::uint8_t* __restrict__ candidate, double first_radius,
                               control::DeviceShares* __restrict__ out, std::int32_t* scratch_index,
                               double* scratch, std::int32_t* __restrict__ receivers,
                               double* __restrict__ fractions, int* __restrict__ used) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= count) return;
  const int k = crowded[c];
  const std::size_t at = static_cast<std::size_t>(c) * kCrowdedSlots;
  double* d = scratch + 7 * at;  // 3 offsets and 4 solve arrays a slot
  Receivers w{scratch_index + at,    d,
              d + 3 * kCrowdedSlots, d + 4 * kCrowdedSlots,
              d + 5 * kCrowdedSlots, d + 6 * kCrowdedSlots,
              kCrowdedSlots,         control::kSolve};
  int m = 0;
  control::DeviceShares result =
      find_receivers(p, candidate, places[k], merging[k] != 0, first_radius, w, m);
  if (result.count > 0) {  // the pools hold kCrowdedSlots a candidate: never past their end
    const int first = atomicAdd(used, m);
    for (int q = 0; q < m; ++q) {
      receivers[first + q] = w.index[q];
      fractions[first + q] = w.f[q];
    }
    result.first = first;  // within this pass's pools
  }
  out[c] = result;
}

int blocks(std::size_t n) {
  return static_cast<int>((n + kThreads - 1) / kThreads);
}

}  // namespace

struct ControlKernel::Impl {
  Stream stream;
  StagingRing ring;  // the particles' upload: pinned slots, the host's copies on all threads
  DeviceBuffer<GridRow> rows;
  DeviceBuffer<GridCell> cells;
  DeviceBuffer<std::int32_t> index, places, receivers, plane;
  DeviceBuffer<double> x, y, z, strength, wall, planes, fractions;
  DeviceBuffer<std::int8_t> flags;
  DeviceBuffer<std::uint8_t> candidate, merging;
  DeviceBuffer<control::DeviceShares> shares;
  DeviceBuffer<int> used;
  // The second pass's: the crowded candidates' rows, their slots, results and pools.
  DeviceBuffer<std::int32_t> crowded, crowded_index, crowded_receivers;
  DeviceBuffer<double> crowded_scratch, crowded_fractions;
  DeviceBuffer<control::DeviceShares> crowded_shares;
  PinnedBuffer<std::int32_t> crowded_rows;
  PinnedBuffer<control::DeviceShares> crowded_back;
  PinnedBuffer<std::int32_t> receivers_back;
  PinnedBuffer<double> fractions_back;
  ControlParticles loaded{};  // the call's particles, device arrays
};

ControlKernel::ControlKernel() : impl_(std::make_unique<Impl>()) {}
ControlKernel::~ControlKernel() = default;

void ControlKernel::load(const ControlParticles& p) {
  Impl& m = *impl_;
  const std::size_t n = p.grid.size;
  ControlParticles& d = m.loaded;
  d = p;  // the sizes and scalars; the arrays' device copies below, queued on the kernels' stream
  cudaStream_t s = m.stream.get();
  d.grid.rows = stage(m.ring, m.rows, p.grid.rows, p.grid.slots, s);
  d.grid.cells = stage(m.ring, m.cells, p.grid.cells, p.grid.cell_count + 1, s);
  d.grid.index = stage(m.ring, m.index, p.grid.index, n, s);
  d.grid.x = stage(m.ring, m.x, p.grid.x, n, s);
  d.grid.y = stage(m.ring, m.y, p.grid.y, n, s);
  d.grid.z = stage(m.ring, m.z, p.grid.z, n, s);
  d.strength = stage(m.ring, m.strength, p.strength, n, s);
  d.wall = p.wall != nullptr ? stage(m.ring, m.wall, p.wall, n, s) : nullptr;
  d.plane = p.wall != nullptr ? stage(m.ring, m.plane, p.plane, n, s) : nullptr;
  d.planes = p.wall != nullptr ? stage(m.ring, m.planes, p.planes, 6 * p.plane_count, s) : nullptr;
}

void ControlKernel::merge_flags(double radius, std::int8_t* flags) {
  Impl& m = *impl_;
  const std::size_t n = m.loaded.grid.size;
  if (n == 0) return;
  cudaStream_t s = m.stream.get();
  std::int8_t* out = m.flags.reserve(n);
  merge_kernel<<<blocks(n), kThreads, 0, s>>>(m.loaded, radius, out);
  VORTEX_CUDA_CHECK_LAUNCH("merge_kernel");
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(flags, out, n, cudaMemcpyDeviceToHost, s));
  m.stream.synchronize();
}

void ControlKernel::shares(const std::int32_t* places, const std::uint8_t* merging,
                           std::size_t count, const std::uint8_t* candidate, double first_radius,
                           control::DeviceShares* out, std::int32_t*& receivers,
                           double*& fractions) {
  Impl& m = *impl_;
  receivers = nullptr;
  fractions = nullptr;
  if (count == 0) return;
  const std::size_t n = m.loaded.grid.size;
  cudaStream_t s = m.stream.get();
  const std::size_t pool = count * kPoolPerCandidate;
  const auto copy_in = [&](auto& buffer, const auto* from, std::size_t size) {
    auto* at = buffer.reserve(size);
    VORTEX_CUDA_CHECK(cudaMemcpyAsync(at, from, size * sizeof(*from), cudaMemcpyHostToDevice, s));
    return at;
  };
  const std::int32_t* d_places = copy_in(m.places, places, count);
  const std::uint8_t* d_merging = copy_in(m.merging, merging, count);
  const std::uint8_t* d_candidate = copy_in(m.candidate, candidate, n);
  int* used = m.used.reserve(1);
  VORTEX_CUDA_CHECK(cudaMemsetAsync(used, 0, sizeof(int), s));
  control::DeviceShares* d_out = m.shares.reserve(count);
  std::int32_t* d_receivers = m.receivers.reserve(pool);
  double* d_fractions = m.fractions.reserve(pool);
  shares_kernel<<<blocks(count), kThreads, 0, s>>>(
      m.loaded, d_places, d_merging, static_cast<int>(count), d_candidate, first_radius, d_out,
      d_receivers, d_fractions, static_cast<int>(pool), used);
  VORTEX_CUDA_CHECK_LAUNCH("shares_kernel");
  int taken = 0;
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(out, d_out, count * sizeof(control::DeviceShares),
                                    cudaMemcpyDeviceToHost, s));
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(&taken, used, sizeof(int), cudaMemcpyDeviceToHost, s));
  m.stream.synchronize();
  const std::size_t back = std::min<std::size_t>(static_cast<std::size_t>(taken), pool);
  // The crowded candidates again, with more slots each.
  std::int32_t* rows = m.crowded_rows.reserve(count);
  std::size_t crowded = 0;
  for (std::size_t k = 0; k < count; ++k)
    if (out[k].count < 0 && out[k].left == control::kCrowded)
      rows[crowded++] = static_cast<std::int32_t>(k);
  int taken_crowded = 0;
  if (crowded > 0) {
    const std::size_t slots = crowded * kCrowdedSlots;
    const std::int32_t* d_rows = copy_in(m.crowded, rows, crowded);
    VORTEX_CUDA_CHECK(cudaMemsetAsync(used, 0, sizeof(int), s));
    control::DeviceShares* d_crowded = m.crowded_shares.reserve(crowded);
    crowded_kernel<<<blocks(crowded), kThreads, 0, s>>>(
        m.loaded, d_places, d_merging, d_rows, static_cast<int>(crowded), d_candidate, first_radius,
        d_crowded, m.crowded_index.reserve(slots), m.crowded_scratch.reserve(7 * slots),
        m.crowded_receivers.reserve(slots), m.crowded_fractions.reserve(slots), used);
    VORTEX_CUDA_CHECK_LAUNCH("crowded_kernel");
    control::DeviceShares* again = m.crowded_back.reserve(crowded);
    VORTEX_CUDA_CHECK(cudaMemcpyAsync(again, d_crowded, crowded * sizeof(control::DeviceShares),
                                      cudaMemcpyDeviceToHost, s));
    VORTEX_CUDA_CHECK(
        cudaMemcpyAsync(&taken_crowded, used, sizeof(int), cudaMemcpyDeviceToHost, s));
    m.stream.synchronize();
    for (std::size_t c = 0; c < crowded; ++c) {  // their places in the pools: after the first's
      control::DeviceShares r = again[c];
      if (r.count > 0) r.first += static_cast<std::int32_t>(back);
      out[rows[c]] = r;
    }
  }
  const std::size_t more = static_cast<std::size_t>(taken_crowded);
  receivers = m.receivers_back.reserve(back + more + 1);
  fractions = m.fractions_back.reserve(back + more + 1);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(receivers, d_receivers, back * sizeof(std::int32_t),
                                    cudaMemcpyDeviceToHost, s));
  VORTEX_CUDA_CHECK(
      cudaMemcpyAsync(fractions, d_fractions, back * sizeof(double), cudaMemcpyDeviceToHost, s));
  if (more > 0) {
    VORTEX_CUDA_CHECK(cudaMemcpyAsync(receivers + back, m.crowded_receivers.data(),
                                      more * sizeof(std::int32_t), cudaMemcpyDeviceToHost, s));
    VORTEX_CUDA_CHECK(cudaMemcpyAsync(fractions + back, m.crowded_fractions.data(),
                                      more * sizeof(double), cudaMemcpyDeviceToHost, s));
  }
  m.stream.synchronize();
}

}  // namespace vortex::gpu
