// The VRM's first round on the GPU (vortex/gpu/vrm_round.hpp): the host's driver of the kernels
// (vrm_kernels.hpp), their buffers, copies and timing events.

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/staging_ring.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/vrm_round.hpp"
#include "vortex/math/vrm_nodes.hpp"
#include "vrm_kernels.hpp"

namespace vortex::gpu {

using namespace vrm_kernels;

namespace {

template <class T>
void upload(DeviceBuffer<T>& to, const T* from, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(to.reserve(n), from, n * sizeof(T), cudaMemcpyHostToDevice, s));
}

// Through the pinned ring, on a few threads: the host's first round runs beside this on the others.
constexpr int kCopyThreads = 4;

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
    stage(ring, rows, host.rows, host.slots, s, kCopyThreads);
    stage(ring, cells, host.cells, host.cell_count + 1, s, kCopyThreads);
    stage(ring, index, host.index, n, s, kCopyThreads);
    stage(ring, x, px, n, s, kCopyThreads);
    stage(ring, y, py, n, s, kCopyThreads);
    stage(ring, z, pz, n, s, kCopyThreads);
    GridView grid = host;
    grid.rows = rows.data();
    grid.cells = cells.data();
    grid.index = index.data();
    grid.x = sorted_x.reserve(n + 1);
    grid.y = sorted_y.reserve(n + 1);
    grid.z = sorted_z.reserve(n + 1);
    launch_gather(static_cast<int>(n), index.data(), x.data(), y.data(), z.data(), sorted_x.data(),
                  sorted_y.data(), sorted_z.data(), s);
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
  DeviceBuffer<std::int32_t> order_keys, sorted_keys, places, order;  // the first kernel's order
  DeviceBuffer<unsigned char> order_temp;
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
  // the batches since hold, R, 1 / h, h, the hole distance, the words of a node mask (0: R spans
  // too many nodes for one), the free moments.
  GridView grid{};
  std::size_t n = 0, capacity = 0, held = 0;
  double radius = 0, inv_h = 0, h = 0, hole = 0;
  int node_words = 0;
  Moments moments{};
  bool loaded_once = false;

  void reserve(std::size_t capacity, std::size_t n);
  void upload_batch(const VrmRoundBatch& in, std::size_t first);
  RoundArrays arrays(std::size_t first, bool own);
  void launch(const VrmRoundBatch& in, std::size_t first, bool nodes);
  std::size_t download_batch(const VrmRoundBatch& in, std::size_t first, bool nodes);
  vrm::RoundBatchResult result(const VrmRoundBatch& in, std::size_t first,
                               std::size_t free_count) const;
};

// Every batch's owners in one range of the buffers, so that the hand-over reads them all.
// Reserved at load: a batch's kernels and copies are done before the next batch is given.
void VrmRoundKernel::Impl::reserve(std::size_t capacity, std::size_t n) {
  owners.reserve(capacity + 1);
  outcome.reserve(capacity + 1);
  sizes.reserve(capacity + 1);
  residual.reserve(capacity + 1);
  slot_neighbors.reserve(capacity * kMax + 1);
  slot_fractions.reserve(capacity * kMax + 1);
  saved.reserve(capacity * kSaved + 1);
  queue.reserve(capacity + 1);
  deferred.reserve(capacity + 1);
  counters.reserve(kCounters);
  host_outcome.reserve(capacity + 1);
  host_sizes.reserve(capacity + 1);
  host_residual.reserve(capacity + 1);
  slot_of.reserve(n + 1);
  sum_x.reserve(n + 1);
  sum_y.reserve(n + 1);
  sum_z.reserve(n + 1);
}

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
  m.reserve(in.capacity, n);
  m.loaded.record(m.stream);
  // The strengths' copy (pageable memory: the call returns once they are staged) while the
  // device solves.
  cudaStream_t c = m.copy.get();
  upload(m.gx, in.gx, n, c);
  upload(m.gy, in.gy, n, c);
  upload(m.gz, in.gz, n, c);
  m.strengths.record(m.copy);
  if (m.resume_blocks == 0) resident_solve_blocks(m.resume_blocks, m.fallback_blocks);
  m.grid = grid;
  m.added = GridView{};
  m.n = n;
  m.capacity = in.capacity;
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

// The batch's owners, at their place after the earlier batches', and its optional arrays.
void VrmRoundKernel::Impl::upload_batch(const VrmRoundBatch& in, std::size_t first) {
  cudaStream_t s = stream.get();
  if (in.count > 0)
    ring.upload(owners.data() + first, in.owners, in.count * sizeof(std::int32_t), s, kCopyThreads);
  if (in.distance != nullptr) stage(ring, distance, in.distance, n, s, kCopyThreads);
  if (in.moment_row != nullptr) {
    stage(ring, moment_row, in.moment_row, in.count, s, kCopyThreads);
    stage(ring, own_moments, in.own_moments, 10 * in.own_count, s, kCopyThreads);
  }
}

// The arrays the solves of the batch whose owners start at `first` read and write.
RoundArrays VrmRoundKernel::Impl::arrays(std::size_t first, bool own) {
  int* c = counters.data();
  return {loaded_grid.x.data(),
          loaded_grid.y.data(),
          loaded_grid.z.data(),
          added_grid.x.data(),
          added_grid.y.data(),
          added_grid.z.data(),
          static_cast<std::int32_t>(n),
          owners.data() + first,
          inv_h,
          moments,
          own ? moment_row.data() : nullptr,
          own ? own_moments.data() : nullptr,
          outcome.data() + first,
          sizes.data() + first,
          residual.data() + first,
          slot_neighbors.data() + first * kMax,
          slot_fractions.data() + first * kMax,
          saved.data(),
          queue.data(),
          c + kQueued,
          c + kTaken,
          deferred.data(),
          c + kDeferred,
          c + kDeferredTaken};
}

// The solves' kernels on the batch (nodes: the free nodes of the owners without a solution too).
void VrmRoundKernel::Impl::launch(const VrmRoundBatch& in, std::size_t first, bool nodes) {
  cudaStream_t s = stream.get();
  VORTEX_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, kCounters * sizeof(int), s));
  SolveLaunch l;
  l.grid = grid;
  l.added = added;
  l.arrays = arrays(first, in.moment_row != nullptr);
  l.count = static_cast<int>(in.count);
  l.radius = radius;
  l.h = h;
  l.hole = hole;
  l.distance = in.distance ? distance.data() : nullptr;
  l.resume_blocks = resume_blocks;
  l.fallback_blocks = fallback_blocks;
  l.order_keys = order_keys.reserve(in.count);
  l.sorted_keys = sorted_keys.reserve(in.count);
  l.places = places.reserve(in.count);
  l.order = order.reserve(in.count);
  l.order_temp_bytes = order_temp_bytes(l.count);
  l.order_temp = order_temp.reserve(l.order_temp_bytes > 0 ? l.order_temp_bytes : 1);
  if (nodes) {
    l.node_words = node_words;
    l.free_owner = free_owner.reserve(in.count);
    l.free_nodes = free_nodes.reserve(in.count * node_words);
    l.free_count = counters.data() + kFreeOwners;
  }
  launch_solves(l, {listed.get(), first_done.get(), resumed.get(), fallen_back.get()}, s);
}

// The batch's outcomes (and lists, and counters) back on the host, then the free nodes' masks;
// returns the owners listed with free nodes.
std::size_t VrmRoundKernel::Impl::download_batch(const VrmRoundBatch& in, std::size_t first,
                                                 bool nodes) {
  cudaStream_t s = stream.get();
  const std::size_t count = in.count;
  copy_back(host_outcome.data() + first, outcome.data() + first, count, s);
  copy_back(host_sizes.data() + first, sizes.data() + first, count, s);
  copy_back(host_residual.data() + first, residual.data() + first, count, s);
  if (in.lists) {
    host_neighbors.reserve(count * kMax + 1);
    host_fractions.reserve(count * kMax + 1);
    copy_back(host_neighbors.data(), slot_neighbors.data() + first * kMax, count * kMax, s);
    copy_back(host_fractions.data(), slot_fractions.data() + first * kMax, count * kMax, s);
  }
  host_counters.reserve(kCounters);
  std::fill_n(host_counters.data(), kCounters, 0);
  if (count > 0) copy_back(host_counters.data(), counters.data(), kCounters, s);
  downloaded.record(stream);
  downloaded.synchronize();
  const std::size_t free_count =
      nodes ? static_cast<std::size_t>(host_counters.data()[kFreeOwners]) : 0;
  if (free_count > 0) {  // their count known, the masks
    download(host_free_owner, free_owner, free_count, s);
    download(host_free_nodes, free_nodes, free_count * node_words, s);
    downloaded.record(stream);
    downloaded.synchronize();
  }
  return free_count;
}

vrm::RoundBatchResult VrmRoundKernel::Impl::result(const VrmRoundBatch& in, std::size_t first,
                                                   std::size_t free_count) const {
  vrm::RoundBatchResult r;
  r.outcome = host_outcome.data() + first;
  r.size = host_sizes.data() + first;
  r.residual = host_residual.data() + first;
  if (free_count > 0) {
    r.free_count = free_count;
    r.free_owner = host_free_owner.data();
    r.free_nodes = host_free_nodes.data();
    r.node_words = node_words;
  }
  if (in.lists) {
    r.neighbors = host_neighbors.data();
    r.fractions = host_fractions.data();
  }
  r.seconds_upload = uploaded.seconds_since(start);
  r.seconds_solve = solved.seconds_since(uploaded);
  r.kernels.fallback_owners = static_cast<std::size_t>(host_counters.data()[kDeferred]);
  if (in.count > 0) {
    r.kernels.lists = listed.seconds_since(uploaded);
    r.kernels.first = first_done.seconds_since(listed);
    r.kernels.resumed = resumed.seconds_since(first_done);
    r.kernels.fallback = fallen_back.seconds_since(resumed);
    r.kernels.nodes = solved.seconds_since(fallen_back);
  }
  r.seconds_download = downloaded.seconds_since(solved);
  return r;
}

vrm::RoundBatchResult VrmRoundKernel::solve(const VrmRoundBatch& in) {
  Impl& m = *impl_;
  if (!m.loaded_once) throw std::logic_error("VRM on the GPU: solve before load");
  if (m.held + in.count > m.capacity)
    throw std::invalid_argument("VRM on the GPU: the batches hold more owners than loaded for");
  const std::size_t first = m.held;
  // The free nodes of the owners without a solution, where a mask holds R's nodes (an owner whose
  // list left out a particle inside the body is left to the host, whose proposals count it).
  const bool nodes = m.node_words > 0 && in.count > 0;
  m.start.record(m.stream);
  m.upload_batch(in, first);
  m.uploaded.record(m.stream);
  if (in.count > 0) m.launch(in, first, nodes);
  m.solved.record(m.stream);
  const std::size_t free_count = m.download_batch(in, first, nodes);
  if (!in.lists) m.held += in.count;
  return m.result(in, first, free_count);
}

void VrmRoundKernel::add_particles(const VrmAddedParticles& in) {
  Impl& m = *impl_;
  if (!m.loaded_once) throw std::logic_error("VRM on the GPU: particles added before load");
  if (in.grid.size != in.n)
    throw std::invalid_argument(
        "VRM on the GPU: the added grid must hold exactly the added particles");
  m.added = GridView{};
  if (in.n == 0) return;
  m.added = m.added_grid.upload(m.ring, in.grid, in.x, in.y, in.z, in.n, m.stream.get());
}

vrm::RoundHandover VrmRoundKernel::hand_over() {
  Impl& m = *impl_;
  if (!m.loaded_once) throw std::logic_error("VRM on the GPU: hand-over before load");
  cudaStream_t s = m.stream.get();
  const std::size_t n = m.n;
  m.handing_over.record(m.stream);
  m.stream.wait(m.strengths.get());
  HandoverLaunch l{
      m.grid,
      m.loaded_grid.x.data(),
      m.loaded_grid.y.data(),
      m.loaded_grid.z.data(),
      m.gx.data(),
      m.gy.data(),
      m.gz.data(),
      static_cast<int>(n),
      static_cast<int>(m.held),
      m.radius,
      m.owners.data(),
      m.outcome.data(),
      m.slot_of.data(),
      {m.slot_of.data(), m.sizes.data(), m.slot_neighbors.data(), m.slot_fractions.data(), kMax},
      m.sum_x.data(),
      m.sum_y.data(),
      m.sum_z.data()};
  launch_handover(l, s);
  m.handed_over.record(m.stream);
  PinnedBuffer<double>* sums[3] = {&m.host_x, &m.host_y, &m.host_z};
  const DeviceBuffer<double>* summed[3] = {&m.sum_x, &m.sum_y, &m.sum_z};
  for (int k = 0; k < 3; ++k) download(*sums[k], *summed[k], n, s);
  m.downloaded.record(m.stream);
  m.downloaded.synchronize();
  m.held = 0;
  vrm::RoundHandover r;
  r.gx = m.host_x.data();
  r.gy = m.host_y.data();
  r.gz = m.host_z.data();
  r.seconds_upload = m.loaded.seconds_since(m.load_start);
  r.seconds_handover = m.handed_over.seconds_since(m.handing_over);
  r.seconds_download = m.downloaded.seconds_since(m.handed_over);
  return r;
}

}  // namespace vortex::gpu
