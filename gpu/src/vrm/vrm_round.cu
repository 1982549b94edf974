// The VRM's first round on the GPU (vortex/gpu/vrm_round.hpp).

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/staging_ring.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/vrm_round.hpp"
#include "vortex/kernels/vrm_dual.hpp"
#include "vortex/kernels/vrm_handover.hpp"
#include "vortex/kernels/vrm_nodes.hpp"

namespace vortex::gpu {

namespace {

constexpr int kMax = kVrmMaxNeighbors;
constexpr int kThreads = 128;
// Newton iterations an owner takes in the first kernel: most owners are done by then, and a warp
// waits no longer than this for its slowest. The others go on in the second kernel, whose threads
// each take the next unfinished owner as soon as theirs is done.
constexpr int kFirstIterations = 4;
// An unfinished owner's saved solve: its multipliers, the regularization's scale, the iterations
// (-1: before its start).
constexpr int kSaved = 12;
// Iterations the fallback's kernel takes for an owner it takes up: nearly all finish within them.
// The few that would take more (each of their iterations is an eigendecomposition, up to 80 of
// them on one thread) go to the host, whose cores finish them sooner.
constexpr int kFallbackIterations = 16;
// Outcome of an owner left unfinished for a later kernel (never returned).
constexpr std::int8_t kUnfinished = 4;
// The device's counters: the owners the first kernel left unfinished and those the second kernel's
// threads have taken, the owners listed with free nodes, the owners deferred to the fallback and
// those its threads have taken.
enum Counter { kQueued, kTaken, kFreeOwners, kDeferred, kDeferredTaken, kCounters };

struct Moments {
  double b[10];
};

// The arrays both kernels read and write.
struct RoundArrays {
  const double *x, *y, *z;         // the particles, in their own order
  const double *ax, *ay, *az;      // the particles added since load (indices n0 on)
  std::int32_t n0;                 // the particles loaded
  const std::int32_t* owners;      // the owners to solve
  double inv_h;                    // 1 / h: offsets are taken in units of h
  Moments moments;                 // the free-space moments
  const std::int32_t* moment_row;  // per owner, its row of own_moments or -1 (may be null)
  const double* own_moments;
  std::int8_t* outcome;          // per owner
  std::int32_t* sizes;           // per owner: its neighbours (0 unless solved)
  double* residual;              // per owner
  std::int32_t* slot_neighbors;  // per owner, kMax slots: its neighbours, ascending
  double* slot_fractions;        // per owner, kMax slots: their fractions
  double* saved;                 // per owner, kSaved values: an unfinished solve
  std::int32_t* queue;           // the owners left unfinished
  int* queued;                   // how many
  int* taken;                    // how many the second kernel's threads have taken
  std::int32_t* deferred;        // the owners whose solve needs the fallback's steps
  int* deferred_count;           // how many
  int* deferred_taken;           // how many the third kernel's threads have taken
};

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
    a.outcome[t] = kVrmDeferred;
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
  a.outcome[t] = o == vrm::Outcome::solved ? kVrmSolved : kVrmNoSolution;
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
    a.outcome[t] = kVrmCrowded;
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

// One thread per listed owner: its neighbours' offsets in units of h; the shared dual solve's start
// and its first iterations. An owner not done by then is saved and queued for vrm_resume_kernel.
__global__ void vrm_round_kernel(RoundArrays a, int count) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count || a.outcome[t] == kVrmCrowded) return;
  const std::int32_t i = a.owners[t];
  const std::int32_t* nb = a.slot_neighbors + static_cast<std::size_t>(t) * kMax;
  const int m = a.sizes[t];
  a.sizes[t] = 0;
  double d[3 * kMax], inv_c[kMax], dots[kMax], trial[kMax];
  const int self = owner_offsets(a, i, nb, m, d);
  if (m == 0 || self < 0) {  // as vrm::solve_redistribution
    a.outcome[t] = kVrmNoSolution;
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
// registers. An owner not done within kFallbackIterations goes to the host (kVrmDeferred).
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
// lattice nodes (vortex/kernels/vrm_nodes.hpp) among its neighbours in its slots, as a mask of
// `words` words, listed at the next place of the list (the host reads them by owner).
__global__ void vrm_free_nodes_kernel(RoundArrays a, int count, double h, double radius,
                                      double hole, int words, std::int32_t* __restrict__ listed,
                                      std::uint64_t* __restrict__ masks, int* __restrict__ total) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count || a.outcome[t] != kVrmNoSolution) return;
  const std::int32_t i = a.owners[t];
  const std::int32_t* nb = a.slot_neighbors + static_cast<std::size_t>(t) * kMax;
  const double x = a.x[i], y = a.y[i], z = a.z[i];
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

// The grid's copy of the coordinates, in its order, from the particles' (a gather on the device
// rather than a second upload of the same values).
__global__ void vrm_gather_kernel(int n, const std::int32_t* __restrict__ index,
                                  const double* __restrict__ x, const double* __restrict__ y,
                                  const double* __restrict__ z, double* __restrict__ out_x,
                                  double* __restrict__ out_y, double* __restrict__ out_z) {
  const int at = blockIdx.x * blockDim.x + threadIdx.x;
  if (at >= n) return;
  const std::int32_t j = index[at];
  out_x[at] = x[j];
  out_y[at] = y[j];
  out_z[at] = z[j];
}

// Marks each solved owner's slot in the per-particle map (cleared to -1 before).
__global__ void vrm_slot_kernel(int count, const std::int32_t* __restrict__ owners,
                                const std::int8_t* __restrict__ outcome,
                                std::int32_t* __restrict__ slot_of) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < count && outcome[t] == kVrmSolved) slot_of[owners[t]] = t;
}

// One thread per particle, in the grid's order (neighbouring threads walk the same cells): what
// the solved owners give it.
__global__ void vrm_handover_kernel(GridView grid, const double* __restrict__ x,
                                    const double* __restrict__ y, const double* __restrict__ z,
                                    const double* __restrict__ gx, const double* __restrict__ gy,
                                    const double* __restrict__ gz, vrm::SolvedSlots slots, int n,
                                    double radius, double* __restrict__ out_x,
                                    double* __restrict__ out_y, double* __restrict__ out_z) {
  const int at = blockIdx.x * blockDim.x + threadIdx.x;
  if (at >= n) return;
  const std::int32_t j = grid.index[at];
  double r[3];
  vrm::received(grid, x, y, z, gx, gy, gz, slots, j, radius, r);
  out_x[j] = r[0];
  out_y[j] = r[1];
  out_z[j] = r[2];
}

template <class T>
void upload(DeviceBuffer<T>& to, const T* from, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(to.reserve(n), from, n * sizeof(T), cudaMemcpyHostToDevice, s));
}

// Through the pinned ring, on a few threads: the host's first round runs beside this on the others.
constexpr int kCopyThreads = 4;

template <class T>
void stage(StagingRing& ring, DeviceBuffer<T>& to, const T* from, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  ring.upload(to.reserve(n), from, n * sizeof(T), s, kCopyThreads);
}

template <class T>
void download(PinnedBuffer<T>& to, const DeviceBuffer<T>& from, std::size_t n, cudaStream_t s) {
  to.reserve(n > 0 ? n : 1);
  if (n == 0) return;
  VORTEX_CUDA_CHECK(
      cudaMemcpyAsync(to.data(), from.data(), n * sizeof(T), cudaMemcpyDeviceToHost, s));
}

template <class T>
void copy_back(T* to, const T* from, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(to, from, n * sizeof(T), cudaMemcpyDeviceToHost, s));
}

// A grid of cells on the device: its rows, cells and sorted indices, the points' coordinates in
// their own order and, gathered from them, in the grid's.
struct DeviceGrid {
  DeviceBuffer<GridRow> rows;
  DeviceBuffer<GridCell> cells;
  DeviceBuffer<std::int32_t> index;
  DeviceBuffer<double> x, y, z, sorted_x, sorted_y, sorted_z;

  // Queues the uploads of `host` (built over exactly the n points x, y, z) and the gather; the
  // view of the device's copy.
  GridView upload(StagingRing& ring, const GridView& host, const double* px, const double* py,
                  const double* pz, std::size_t n, cudaStream_t s) {
    stage(ring, rows, host.rows, host.slots, s);
    stage(ring, cells, host.cells, host.cell_count + 1, s);
    stage(ring, index, host.index, n, s);
    stage(ring, x, px, n, s);
    stage(ring, y, py, n, s);
    stage(ring, z, pz, n, s);
    GridView grid = host;
    grid.rows = rows.data();
    grid.cells = cells.data();
    grid.index = index.data();
    grid.x = sorted_x.reserve(n + 1);
    grid.y = sorted_y.reserve(n + 1);
    grid.z = sorted_z.reserve(n + 1);
    if (n > 0) {
      const int points = static_cast<int>(n);
      vrm_gather_kernel<<<(points + kThreads - 1) / kThreads, kThreads, 0, s>>>(
          points, index.data(), x.data(), y.data(), z.data(), sorted_x.data(), sorted_y.data(),
          sorted_z.data());
      VORTEX_CUDA_CHECK_LAUNCH("vrm_gather_kernel");
    }
    return grid;
  }
};

}  // namespace

struct VrmRoundKernel::Impl {
  Stream stream, copy;
  StagingRing ring;
  DeviceGrid loaded_grid, added_grid;  // the particles loaded; those added since, on their own grid
  DeviceBuffer<double> gx, gy, gz;
  GridView added{};
  PinnedBuffer<std::int32_t> host_neighbors;
  PinnedBuffer<double> host_fractions;
  DeviceBuffer<std::int32_t> owners, sizes, slot_of, slot_neighbors, moment_row;
  DeviceBuffer<double> residual, slot_fractions, own_moments, distance, sum_x, sum_y, sum_z, saved;
  DeviceBuffer<std::int32_t> queue, deferred;
  DeviceBuffer<int> counters;             // by Counter
  DeviceBuffer<std::int32_t> free_owner;  // the owners listed with free nodes, and their masks
  DeviceBuffer<std::uint64_t> free_nodes;
  PinnedBuffer<int> host_counters;  // the counters, read back after the solves
  PinnedBuffer<std::int32_t> host_free_owner;
  PinnedBuffer<std::uint64_t> host_free_nodes;
  int resume_blocks = 0;    // the resume kernel's grid: as many blocks as run at once
  int fallback_blocks = 0;  // the fallback kernel's
  DeviceBuffer<std::int8_t> outcome;
  PinnedBuffer<std::int8_t> host_outcome;
  PinnedBuffer<std::int32_t> host_sizes;
  PinnedBuffer<double> host_residual, host_x, host_y, host_z;
  Event load_start, loaded, start, uploaded, solved, handing_over, handed_over;  // phases' times
  Event listed, first_done, resumed, fallen_back;  // the solves' kernels' ends
  Event strengths{cudaEventDisableTiming};         // the strengths are on the device
  Event downloaded{cudaEventBlockingSync};         // waited for without spinning
  // Of the particles loaded: the grid on the device, their count, the owners' room and how many
  // the batches since hold, R, 1 / h, the free moments.
  GridView grid{};
  // h, the hole distance, the words of a node mask (0: R spans too many nodes for one).
  std::size_t n = 0, capacity = 0, held = 0;
  double radius = 0, inv_h = 0, h = 0, hole = 0;
  int node_words = 0;
  Moments moments{};
  bool loaded_once = false;
};

VrmRoundKernel::VrmRoundKernel() : impl_(std::make_unique<Impl>()) {}
VrmRoundKernel::~VrmRoundKernel() = default;

void VrmRoundKernel::load(const VrmRoundParticles& in) {
  Impl& m = *impl_;
  cudaStream_t s = m.stream.get();
  const std::size_t n = in.n;
  if (in.grid.size != n)
    throw std::invalid_argument("VRM on the GPU: the grid must hold exactly the given particles");
  m.load_start.record(m.stream);
  // What the solves read first; the strengths, which only the hand-over reads, on a stream of
  // their own, so that their copy runs beside the solves.
  const GridView grid = m.loaded_grid.upload(m.ring, in.grid, in.x, in.y, in.z, n, s);
  // Every batch's owners in one range of these, so that the hand-over reads them all. Reserved
  // here: a batch's kernels and copies are done before the next batch is given.
  const std::size_t capacity = in.capacity;
  m.owners.reserve(capacity + 1);
  m.outcome.reserve(capacity + 1);
  m.sizes.reserve(capacity + 1);
  m.residual.reserve(capacity + 1);
  m.slot_neighbors.reserve(capacity * kMax + 1);
  m.slot_fractions.reserve(capacity * kMax + 1);
  m.saved.reserve(capacity * kSaved + 1);
  m.queue.reserve(capacity + 1);
  m.deferred.reserve(capacity + 1);
  m.counters.reserve(kCounters);
  m.host_outcome.reserve(capacity + 1);
  m.host_sizes.reserve(capacity + 1);
  m.host_residual.reserve(capacity + 1);
  m.slot_of.reserve(n + 1);
  m.sum_x.reserve(n + 1);
  m.sum_y.reserve(n + 1);
  m.sum_z.reserve(n + 1);
  m.loaded.record(m.stream);
  // The strengths' copy (pageable memory: the call returns once they are staged) while the
  // device solves.
  cudaStream_t c = m.copy.get();
  upload(m.gx, in.gx, n, c);
  upload(m.gy, in.gy, n, c);
  upload(m.gz, in.gz, n, c);
  m.strengths.record(m.copy);
  if (m.resume_blocks == 0) {
    int per_sm = 0, fallback_per_sm = 0, device = 0, sms = 0;
    VORTEX_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, vrm_resume_kernel, kThreads, 0));
    VORTEX_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &fallback_per_sm, vrm_fallback_kernel, kThreads, 0));
    VORTEX_CUDA_CHECK(cudaGetDevice(&device));
    VORTEX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    m.resume_blocks = std::max(1, per_sm * sms);
    m.fallback_blocks = std::max(1, fallback_per_sm * sms);
  }
  m.grid = grid;
  m.added = GridView{};
  m.n = n;
  m.capacity = capacity;
  m.held = 0;
  m.radius = in.radius;
  m.inv_h = 1.0 / in.spacing;
  m.h = in.spacing;
  m.hole = in.hole;
  vrm::NodeCube cube;
  cube.r = static_cast<int>(std::ceil(in.radius / in.spacing));
  m.node_words = cube.words() <= vrm::kMaxNodeWords ? cube.words() : 0;
  for (int k = 0; k < 10; ++k) m.moments.b[k] = in.moments[k];
  m.loaded_once = true;
}

VrmBatchResult VrmRoundKernel::solve(const VrmRoundBatch& in) {
  Impl& m = *impl_;
  if (!m.loaded_once) throw std::logic_error("VRM on the GPU: solve before load");
  if (m.held + in.count > m.capacity)
    throw std::invalid_argument("VRM on the GPU: the batches hold more owners than loaded for");
  cudaStream_t s = m.stream.get();
  const std::size_t first = m.held, count = in.count;
  // The free nodes of the owners without a solution, where no wall leaves particles out of their
  // lists (the host's proposals count every particle within R) and a mask holds R's nodes.
  const bool nodes = in.distance == nullptr && m.node_words > 0 && count > 0;
  m.start.record(m.stream);
  if (count > 0)  // at its place after the earlier batches'
    m.ring.upload(m.owners.data() + first, in.owners, count * sizeof(std::int32_t), s,
                  kCopyThreads);
  if (in.distance != nullptr) stage(m.ring, m.distance, in.distance, m.n, s);
  const bool own = in.moment_row != nullptr;
  if (own) {
    stage(m.ring, m.moment_row, in.moment_row, count, s);
    stage(m.ring, m.own_moments, in.own_moments, 10 * in.own_count, s);
  }
  m.uploaded.record(m.stream);
  if (count > 0) {
    int* counters = m.counters.data();
    VORTEX_CUDA_CHECK(cudaMemsetAsync(counters, 0, kCounters * sizeof(int), s));
    const RoundArrays arrays{m.loaded_grid.x.data(),
                             m.loaded_grid.y.data(),
                             m.loaded_grid.z.data(),
                             m.added_grid.x.data(),
                             m.added_grid.y.data(),
                             m.added_grid.z.data(),
                             static_cast<std::int32_t>(m.n),
                             m.owners.data() + first,
                             m.inv_h,
                             m.moments,
                             own ? m.moment_row.data() : nullptr,
                             own ? m.own_moments.data() : nullptr,
                             m.outcome.data() + first,
                             m.sizes.data() + first,
                             m.residual.data() + first,
                             m.slot_neighbors.data() + first * kMax,
                             m.slot_fractions.data() + first * kMax,
                             m.saved.data(),
                             m.queue.data(),
                             counters + kQueued,
                             counters + kTaken,
                             m.deferred.data(),
                             counters + kDeferred,
                             counters + kDeferredTaken};
    const int n_owners = static_cast<int>(count);
    vrm_list_kernel<<<(n_owners + kThreads - 1) / kThreads, kThreads, 0, s>>>(
        m.grid, m.added, arrays, n_owners, m.radius, in.distance ? m.distance.data() : nullptr);
    VORTEX_CUDA_CHECK_LAUNCH("vrm_list_kernel");
    m.listed.record(m.stream);
    vrm_round_kernel<<<(n_owners + kThreads - 1) / kThreads, kThreads, 0, s>>>(arrays, n_owners);
    VORTEX_CUDA_CHECK_LAUNCH("vrm_round_kernel");
    m.first_done.record(m.stream);
    vrm_resume_kernel<<<m.resume_blocks, kThreads, 0, s>>>(arrays);
    VORTEX_CUDA_CHECK_LAUNCH("vrm_resume_kernel");
    m.resumed.record(m.stream);
    vrm_fallback_kernel<<<m.fallback_blocks, kThreads, 0, s>>>(arrays);
    VORTEX_CUDA_CHECK_LAUNCH("vrm_fallback_kernel");
    m.fallen_back.record(m.stream);
    if (nodes) {
      m.free_owner.reserve(count);
      m.free_nodes.reserve(count * m.node_words);
      vrm_free_nodes_kernel<<<(n_owners + kThreads - 1) / kThreads, kThreads, 0, s>>>(
          arrays, n_owners, m.h, m.radius, m.hole, m.node_words, m.free_owner.data(),
          m.free_nodes.data(), counters + kFreeOwners);
      VORTEX_CUDA_CHECK_LAUNCH("vrm_free_nodes_kernel");
    }
  }
  m.solved.record(m.stream);
  copy_back(m.host_outcome.data() + first, m.outcome.data() + first, count, s);
  copy_back(m.host_sizes.data() + first, m.sizes.data() + first, count, s);
  copy_back(m.host_residual.data() + first, m.residual.data() + first, count, s);
  if (in.lists) {
    m.host_neighbors.reserve(count * kMax + 1);
    m.host_fractions.reserve(count * kMax + 1);
    copy_back(m.host_neighbors.data(), m.slot_neighbors.data() + first * kMax, count * kMax, s);
    copy_back(m.host_fractions.data(), m.slot_fractions.data() + first * kMax, count * kMax, s);
  }
  m.host_counters.reserve(kCounters);
  std::fill_n(m.host_counters.data(), kCounters, 0);
  if (count > 0) copy_back(m.host_counters.data(), m.counters.data(), kCounters, s);
  m.downloaded.record(m.stream);
  m.downloaded.synchronize();
  const std::size_t free_count =
      nodes ? static_cast<std::size_t>(m.host_counters.data()[kFreeOwners]) : 0;
  if (free_count > 0) {  // their count known, the masks
    const std::size_t words = free_count * m.node_words;
    download(m.host_free_owner, m.free_owner, free_count, s);
    download(m.host_free_nodes, m.free_nodes, words, s);
    m.downloaded.record(m.stream);
    m.downloaded.synchronize();
  }
  if (!in.lists) m.held += count;
  VrmBatchResult r{m.host_outcome.data() + first, m.host_sizes.data() + first,
                   m.host_residual.data() + first};
  if (free_count > 0) {
    r.free_count = free_count;
    r.free_owner = m.host_free_owner.data();
    r.free_nodes = m.host_free_nodes.data();
    r.node_words = m.node_words;
  }
  if (in.lists) {
    r.neighbors = m.host_neighbors.data();
    r.fractions = m.host_fractions.data();
  }
  r.seconds_upload = m.uploaded.seconds_since(m.start);
  r.seconds_solve = m.solved.seconds_since(m.uploaded);
  r.fallback_count = static_cast<std::size_t>(m.host_counters.data()[kDeferred]);
  if (count > 0) {
    r.seconds_lists = m.listed.seconds_since(m.uploaded);
    r.seconds_first = m.first_done.seconds_since(m.listed);
    r.seconds_resumed = m.resumed.seconds_since(m.first_done);
    r.seconds_fallback = m.fallen_back.seconds_since(m.resumed);
    r.seconds_nodes = m.solved.seconds_since(m.fallen_back);
  }
  r.seconds_download = m.downloaded.seconds_since(m.solved);
  return r;
}

void VrmRoundKernel::add_particles(const VrmAddedParticles& in) {
  Impl& m = *impl_;
  if (!m.loaded_once) throw std::logic_error("VRM on the GPU: particles added before load");
  if (in.grid.size != in.n)
    throw std::invalid_argument(
        "VRM on the GPU: the added grid must hold exactly the added particles");
  cudaStream_t s = m.stream.get();
  const std::size_t n = in.n;
  m.added = GridView{};
  if (n == 0) return;
  m.added = m.added_grid.upload(m.ring, in.grid, in.x, in.y, in.z, n, s);
}

VrmHandover VrmRoundKernel::hand_over() {
  Impl& m = *impl_;
  if (!m.loaded_once) throw std::logic_error("VRM on the GPU: hand-over before load");
  cudaStream_t s = m.stream.get();
  const std::size_t n = m.n;
  const int n_owners = static_cast<int>(m.held), n_points = static_cast<int>(n);
  m.handing_over.record(m.stream);
  m.stream.wait(m.strengths.get());
  if (n > 0) {
    VORTEX_CUDA_CHECK(cudaMemsetAsync(m.slot_of.data(), 0xFF, n * sizeof(std::int32_t), s));
    if (n_owners > 0) {
      vrm_slot_kernel<<<(n_owners + kThreads - 1) / kThreads, kThreads, 0, s>>>(
          n_owners, m.owners.data(), m.outcome.data(), m.slot_of.data());
      VORTEX_CUDA_CHECK_LAUNCH("vrm_slot_kernel");
    }
    const vrm::SolvedSlots slots{m.slot_of.data(), m.sizes.data(), m.slot_neighbors.data(),
                                 m.slot_fractions.data(), kMax};
    vrm_handover_kernel<<<(n_points + kThreads - 1) / kThreads, kThreads, 0, s>>>(
        m.grid, m.loaded_grid.x.data(), m.loaded_grid.y.data(), m.loaded_grid.z.data(), m.gx.data(),
        m.gy.data(), m.gz.data(), slots, n_points, m.radius, m.sum_x.data(), m.sum_y.data(),
        m.sum_z.data());
    VORTEX_CUDA_CHECK_LAUNCH("vrm_handover_kernel");
  }
  m.handed_over.record(m.stream);
  PinnedBuffer<double>* sums[3] = {&m.host_x, &m.host_y, &m.host_z};
  const DeviceBuffer<double>* summed[3] = {&m.sum_x, &m.sum_y, &m.sum_z};
  for (int k = 0; k < 3; ++k) download(*sums[k], *summed[k], n, s);
  m.downloaded.record(m.stream);
  m.downloaded.synchronize();
  m.held = 0;
  VrmHandover r{m.host_x.data(), m.host_y.data(), m.host_z.data()};
  r.seconds_upload = m.loaded.seconds_since(m.load_start);
  r.seconds_handover = m.handed_over.seconds_since(m.handing_over);
  r.seconds_download = m.downloaded.seconds_since(m.handed_over);
  return r;
}

}  // namespace vortex::gpu
