#include "far/local_field_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "backend/cpu_stages.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/multipole/m2l.hpp"

namespace vortex::detail {

namespace {

// Room for n, at least one element, so that every pointer is valid.
template <class T>
T* room(gpu::DeviceBuffer<T>& b, std::size_t n) {
  return b.reserve(std::max<std::size_t>(n, 1));
}

}  // namespace

bool DeviceLocals::prepare(const ResolvedOptions& options, const gpu::DeviceTree& targets,
                           const gpu::DeviceTree& sources, const int* far_offsets,
                           EvaluationStats& stats) {
  active_ = false;
  stats.far_field = "m2p";
  stats.m2l_translations = stats.l2l_translations = stats.l2p_targets = 0;
  stats.times.far_plan = stats.times.m2l = stats.times.l2l = stats.times.l2p = 0;
  stats.far_field_costs = {};
  const gpu::TreeShape& ts = targets.shape();
  const FarField mode = options.far_field;
  if (mode == FarField::M2P || ts.nodes.size() < 2 || ts.leaves.empty()) return false;
  order_ = options.tree.order;
  const FarFieldCosts costs =
      mode == FarField::Auto ? far_field_costs_cuda(order_, options.arithmetic) : FarFieldCosts{};
  stats.far_field_costs = costs;
  if (!local_may_pay(mode, costs, ts.n)) return false;
  const std::size_t nodes = ts.nodes.size(), leaves = ts.leaves.size();
  level_start_ = ts.level_start;
  gpu::LocalLists& l = field_.lists;
  l.targets = targets.nodes();
  l.num_nodes = static_cast<int>(nodes);
  l.leaves = targets.leaves();
  l.num_leaves = static_cast<int>(leaves);
  l.inner_by_level = targets.inner_by_level();
  l.sources = sources.nodes();
  l.num_sources = sources.num_nodes();
  l.far_offsets = far_offsets;
  l.theta = options.tree.theta;
  l.mode = mode;
  l.costs = costs;
  l.source_begin = room(source_begin_, l.num_sources);
  for (auto* b : {&leaf_of_, &room_, &subtree_, &common_count_, &taken_count_, &taken_owner_,
                  &m2l_count_, &local_from_, &chunk_count_, &stores_})
    room(*b, nodes);
  l.leaf_of = leaf_of_.data();
  l.room = room_.data();
  l.subtree = subtree_.data();
  l.common_count = common_count_.data();
  l.taken_count = taken_count_.data();
  l.taken_owner = taken_owner_.data();
  l.m2l_count = m2l_count_.data();
  l.local_from = local_from_.data();
  l.chunk_count = chunk_count_.data();
  l.stores = stores_.data();
  l.chunk_offsets = room(chunk_offsets_, nodes + 1);
  l.stored_index = room(stored_index_, nodes + 1);
  l.slot_size = room(slot_size_, nodes);
  l.slot_offsets = room(slot_offsets_, nodes + 1);
  l.has_local = room(has_local_, nodes);
  l.m2p_count = room(m2p_count_, leaves);
  l.m2p_offsets = room(m2p_offsets_, leaves + 1);
  l.counters = room(counters_, 3);
  l.may_take = room(may_take_, 1);
  sizes_.reserve(4);
  counted_.reserve(3);
  active_ = true;
  return true;
}

void DeviceLocals::launch_rooms(gpu::DeviceBuffer<unsigned char>& scan_temp, long long* total,
                                cudaStream_t stream) {
  gpu::launch_local_rooms(field_.lists, level_start_, scan_temp, stream);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(total, field_.lists.slot_offsets + field_.lists.num_nodes,
                                    sizeof(long long), cudaMemcpyDeviceToHost, stream));
}

bool DeviceLocals::choose(long long slot_total, DeviceFarLists far, int far_total,
                          gpu::DeviceBuffer<unsigned char>& scan_temp, const gpu::Stream& stream,
                          EvaluationStats& stats) {
  gpu::LocalLists& l = field_.lists;
  const cudaStream_t s = stream.get();
  choice_start_.record(stream);
  l.far_nodes = far.nodes;
  l.far_orders = far.orders;
  // A bound first (cheap): where no node could take an M2L entry, M2P alone.
  int* sizes = sizes_.data();
  gpu::launch_local_may_take(l, s);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(sizes + 3, l.may_take, sizeof(int), cudaMemcpyDeviceToHost, s));
  stream.synchronize();
  // The three slot arrays, then the expansions and the M2P lists, must leave the device room for
  // the sums: else M2P alone.
  std::size_t free = 0, total = 0;
  VORTEX_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (sizes[3] == 0 || 3 * sizeof(int) * static_cast<std::size_t>(slot_total) > free / 2) {
    active_ = false;
    return false;
  }
  l.common = room(common_, slot_total);
  l.taken = room(taken_, slot_total);
  l.m2l = room(m2l_, slot_total);
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
  const int q = local_order(order_);
  const std::size_t expansion = sizeof(double) * multipole::local_size(q);
  VORTEX_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  if (field_.num_chunks == 0 ||
      (std::size_t(sizes[1]) + sizes[2]) * expansion + 5 * std::size_t(far_total) > free / 2) {
    active_ = false;
    return false;
  }
  l.m2p_nodes = room(m2p_nodes_, far_total);
  l.m2p_orders = room(m2p_orders_, far_total);
  gpu::launch_local_m2p(l, scan_temp, s);
  VORTEX_CUDA_CHECK(
      cudaMemcpyAsync(sizes, l.m2p_offsets + l.num_leaves, sizeof(int), cudaMemcpyDeviceToHost, s));
  field_.partials = room(partials_, std::size_t(sizes[1]) * multipole::local_size(q));
  field_.locals = room(locals_, std::size_t(sizes[2]) * multipole::local_size(q));
  choice_end_.record(stream);
  stats.far_field = "local";
  stats.m2l_translations = counted_.data()[0];
  stats.l2l_translations = counted_.data()[1];
  stats.l2p_targets = counted_.data()[2];
  return true;
}

DeviceFarLists DeviceLocals::m2p(DeviceFarLists far) const {
  if (!active_) return far;
  return {m2p_offsets_.data(), m2p_nodes_.data(), m2p_orders_.data()};
}

void DeviceLocals::launch_translations(const double* multipoles, const gpu::Stream& stream) {
  if (!active_) return;
  field_.order = order_;
  field_.multipoles = multipoles;
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
