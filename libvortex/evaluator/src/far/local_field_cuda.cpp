#include "far/local_field_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <vector>

#include "backend/backend.hpp"
#include "backend/cpu_stages.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/m2l_packed_w.hpp"
#include "vortex/multipole/m2l_rotation.hpp"

namespace vortex::detail {

namespace {

// Whether `bytes` more fit in half the device's free memory (no query for none).
bool fits(std::size_t bytes) {
  if (bytes == 0) return true;
  std::size_t free = 0, total = 0;
  VORTEX_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return bytes <= free / 2;
}

// W packed for the device's M2L (multipole::detail::pack_w), in T.
template <class T>
std::vector<T> packed_w() {
  std::vector<T> w(gpu::kM2lPackedEntries);
  multipole::detail::pack_w(multipole::m2l_rotation_tables(), w.data());
  return w;
}

// Room for n, at least one element, so that every pointer is valid.
template <class T>
T* room(gpu::DeviceBuffer<T>& b, std::size_t n) {
  return b.reserve(std::max<std::size_t>(n, 1));
}
template <class T>
std::size_t growth(const gpu::DeviceBuffer<T>& b, std::size_t n) {
  return n > b.capacity() ? n * sizeof(T) : 0;
}

}  // namespace

bool DeviceLocals::prepare(const ResolvedOptions& options, const gpu::DeviceTree& targets,
                           const gpu::DeviceTree& sources, const int* far_offsets,
                           EvaluationStats& stats) {
  active_ = false;
  reset_far_field_stats(stats);
  const gpu::TreeShape& ts = targets.shape();
  const FarField mode = options.far_field;
  if (mode == FarField::M2P || ts.nodes.size() < 2 || ts.leaves.empty()) return false;
  order_ = options.tree.order;
  field_.float_terms = options.arithmetic == Arithmetic::Float;
  const FarFieldCosts costs =
      mode == FarField::Auto ? far_field_costs_cuda(order_, options.arithmetic) : FarFieldCosts{};
  stats.far_field_costs = costs;
  if (!local_may_pay(mode, costs, ts.n)) return false;
  level_start_ = ts.level_start;
  gpu::LocalLists& l = field_.lists;
  l.targets = targets.nodes();
  l.leaves = targets.leaves();
  l.inner_by_level = targets.inner_by_level();
  l.sources = sources.nodes();
  l.far_offsets = far_offsets;
  l.theta = options.tree.theta;
  l.mode = mode;
  l.costs = costs;
  storage_.attach(l, static_cast<int>(ts.nodes.size()), static_cast<int>(ts.leaves.size()),
                  sources.num_nodes());
  sizes_.reserve(4);
  slot_total_.reserve(1);
  counted_.reserve(3);
  active_ = true;
  return true;
}

void DeviceLocals::launch_rooms(gpu::DeviceBuffer<unsigned char>& scan_temp, cudaStream_t stream) {
  gpu::launch_local_rooms(field_.lists, level_start_, scan_temp, stream);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(slot_total_.data(),
                                    field_.lists.slot_offsets + field_.lists.num_nodes,
                                    sizeof(long long), cudaMemcpyDeviceToHost, stream));
}

bool DeviceLocals::choose(DeviceFarLists far, int far_total,
                          gpu::DeviceBuffer<unsigned char>& scan_temp, const gpu::Stream& stream,
                          EvaluationStats& stats) {
  gpu::LocalLists& l = field_.lists;
  const cudaStream_t s = stream.get();
  choice_start_.record(stream);
  l.far_nodes = far.nodes;
  l.far_orders = far.orders;
  // A bound first (cheap): where no node could take an M2L entry, M2P alone. The storage of the
  // lists, then of the expansions and the M2P lists, must fit in half the device's free memory:
  // else M2P alone too.
  int* sizes = sizes_.data();
  gpu::launch_local_may_take(l, s);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(sizes + 3, l.may_take, sizeof(int), cudaMemcpyDeviceToHost, s));
  stream.synchronize();
  const long long slots = slot_total_.data()[0];
  if (sizes[3] == 0 || !fits(storage_.slot_growth(slots))) {
    active_ = false;
    return false;
  }
  storage_.attach_slots(l, slots);
  VORTEX_CUDA_CHECK(cudaMemsetAsync(l.counters, 0, 3 * sizeof(unsigned long long), s));
  gpu::launch_local_choice(l, level_start_, scan_temp, s);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(sizes + 1, l.chunk_offsets + l.num_nodes, sizeof(int),
                                    cudaMemcpyDeviceToHost, s));
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(sizes + 2, l.stored_index + l.num_nodes, sizeof(int),
                                    cudaMemcpyDeviceToHost, s));
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(counted_.data(), l.counters, 3 * sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost, s));
  stream.synchronize();
  field_.num_chunks = sizes[1];
  const std::size_t size = multipole::local_size(local_order(order_));
  const std::size_t normalized =
      std::size_t(l.num_sources) * multipole::multipole_size(order_);  // in double, room for float
  if (field_.num_chunks == 0 ||
      !fits(growth(partials_, std::size_t(sizes[1]) * size) +
            growth(locals_, std::size_t(sizes[2]) * size) + growth(normalized_, normalized) +
            storage_.m2p_growth(far_total))) {
    active_ = false;
    return false;
  }
  storage_.attach_m2p(l, far_total);
  gpu::launch_local_m2p(l, scan_temp, s);
  VORTEX_CUDA_CHECK(
      cudaMemcpyAsync(sizes, l.m2p_offsets + l.num_leaves, sizeof(int), cudaMemcpyDeviceToHost, s));
  field_.partials = room(partials_, std::size_t(sizes[1]) * size);
  field_.locals = room(locals_, std::size_t(sizes[2]) * size);
  field_.normalized = room(normalized_, normalized);
  choice_end_.record(stream);
  stats.far_field = "local";
  stats.m2l_translations = counted_.data()[0];
  stats.l2l_translations = counted_.data()[1];
  stats.l2p_targets = counted_.data()[2];
  return true;
}

DeviceFarLists DeviceLocals::m2p(DeviceFarLists far) const {
  if (!active_) return far;
  const gpu::LocalLists& l = field_.lists;
  return {l.m2p_offsets, l.m2p_nodes, l.m2p_orders};
}

void DeviceLocals::launch_translations(const double* multipoles, const gpu::Stream& stream) {
  if (!active_) return;
  field_.order = order_;
  field_.multipoles = multipoles;
  if (!field_.rotation) {  // the rotations' tables, once (the host's stay in place)
    const multipole::rotation::Tables& tables = multipole::m2l_rotation_tables();
    unsigned char* d = rotation_.reserve(sizeof tables);
    VORTEX_CUDA_CHECK(
        cudaMemcpyAsync(d, &tables, sizeof tables, cudaMemcpyHostToDevice, stream.get()));
    field_.rotation = reinterpret_cast<const multipole::rotation::Tables*>(d);
    static const std::vector<float> w_float = packed_w<float>();
    static const std::vector<double> w_double = packed_w<double>();
    gpu::upload_local_m2l_constants(w_float.data(), w_double.data(), tables.axial_float,
                                    tables.axial);
  }
  m2l_start_.record(stream);
  gpu::launch_local_m2l(field_, stream.get());
  m2l_end_.record(stream);
  gpu::launch_local_l2l(field_, level_start_, stream.get());
  l2l_end_.record(stream);
}

void DeviceLocals::launch_l2p(const gpu::DeviceTree& targets, double scale, double* out,
                              std::size_t stride, bool gradient, const gpu::Stream& stream) {
  if (!active_) return;
  field_.gradient = gradient;
  field_.x = targets.x();
  field_.y = targets.y();
  field_.z = targets.z();
  field_.permutation = targets.permutation();
  field_.scale = scale;
  field_.out = out;
  field_.out_stride = stride;
  l2p_start_.record(stream);
  gpu::launch_local_l2p(field_, stream.get());
  l2p_end_.record(stream);
}

void DeviceLocals::fill_times(EvaluationStats& stats) const {
  if (!active_) return;
  stats.far_list_entries = static_cast<std::uint64_t>(sizes_.data()[0]);  // the M2P lists
  stats.times.far_plan = choice_end_.seconds_since(choice_start_);
  stats.times.m2l = m2l_end_.seconds_since(m2l_start_);
  stats.times.l2l = l2l_end_.seconds_since(m2l_end_);
  stats.times.l2p = l2p_end_.seconds_since(l2p_start_);
}

}  // namespace vortex::detail
