// The local-expansion lists on the device (local_launch.hpp): level by level over the target
// tree, as the host's build (lists/local_expansion_lists.cpp) walks it. The rooms take one thread
// a node; the lists one warp a node, its lanes over a list's entries, each looking its entry up in
// the other lists by bisection (every list is sorted by node begin) and the warp writing the kept
// entries in order.

#include <algorithm>

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/gpu/tree_launch.hpp"

namespace vortex::gpu {
namespace {

constexpr int kBlock = 128;

unsigned blocks_for(long long n) {
  return static_cast<unsigned>((n + kBlock - 1) / kBlock);
}

// A list of source nodes in the source tree's order.
struct Span {
  const int* data = nullptr;
  int size = 0;
};

__device__ Span far_list(const LocalLists& l, int leaf) {
  return {l.far_nodes + l.far_offsets[leaf], l.far_offsets[leaf + 1] - l.far_offsets[leaf]};
}

// The far entries common to all leaves under node t (its far list for a leaf).
__device__ Span common_of(const LocalLists& l, int t) {
  if (l.targets[t].is_leaf()) return far_list(l, l.leaf_of[t]);
  return {l.common + l.slot_offsets[t], l.common_count[t]};
}

// The entries taken at node t or above (held by the slot of the lowest node that took).
__device__ Span taken_of(const LocalLists& l, int t) {
  const int owner = t >= 0 ? l.taken_owner[t] : -1;
  if (owner < 0) return {};
  return {l.taken + l.slot_offsets[owner], l.taken_count[owner]};
}

// Whether node s is in `list` (sorted by node begin: at most one entry a begin).
__device__ bool contains(const LocalLists& l, Span list, int s) {
  const int key = l.source_begin[s];
  int lo = 0, hi = list.size;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (l.source_begin[list.data[mid]] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < list.size && list.data[lo] == s;
}

constexpr int kWarp = 32;

__device__ int lane() {
  return threadIdx.x & (kWarp - 1);
}

// The warp's index in the grid.
__device__ long long warp_index() {
  return (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
}

// Writes the entries of the warp's lanes that keep theirs, in lane order, at out + written;
// returns how many the warp wrote.
__device__ int write_kept(bool keep, int s, int* out, int written) {
  const unsigned mask = __ballot_sync(0xffffffffu, keep);
  if (keep) out[written + __popc(mask & ((1u << lane()) - 1))] = s;
  return __popc(mask);
}

__global__ void leaf_kernel(LocalLists l) {
  const int leaf = blockIdx.x * blockDim.x + threadIdx.x;
  if (leaf >= l.num_leaves) return;
  const int t = l.leaves[leaf];
  const int far = l.far_offsets[leaf + 1] - l.far_offsets[leaf];
  l.leaf_of[t] = leaf;
  l.room[t] = far;
  l.subtree[t] = 1;
  // A leaf's common entries are its far list; it needs a slot only where it may take M2L.
  l.slot_size[t] = local_may_pay(l.mode, l.costs, l.targets[t].count()) ? far : 0;
}

__global__ void key_kernel(LocalLists l) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s < l.num_sources) l.source_begin[s] = l.sources[s].begin;
}

// Inner nodes [first, first + n) of inner_by_level, children done.
__global__ void room_kernel(LocalLists l, int first, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int t = l.inner_by_level[first + i];
  const KdNode& node = l.targets[t];
  int room = l.room[node.first_child], subtree = 1;
  for (int c = node.first_child; c < node.first_child + node.num_children; ++c) {
    room = min(room, l.room[c]);
    subtree += l.subtree[c];
  }
  l.room[t] = room;
  l.subtree[t] = subtree;
  l.slot_size[t] = room;
}

// The entries of the first child's list that every other child's list holds: one warp a node.
__global__ void common_kernel(LocalLists l, int first, int n) {
  const long long w = warp_index();
  if (w >= n) return;
  const int t = l.inner_by_level[first + w];
  const KdNode& node = l.targets[t];
  const Span head = common_of(l, node.first_child);
  int* out = l.common + l.slot_offsets[t];
  int count = 0;
  for (int base = 0; base < head.size; base += kWarp) {
    const int k = base + lane();
    const int s = k < head.size ? head.data[k] : -1;
    bool all = s >= 0;
    for (int c = 1; c < node.num_children && all; ++c)
      all = contains(l, common_of(l, node.first_child + c), s);
    count += write_kept(all, s, out, count);
  }
  if (lane() == 0) l.common_count[t] = count;
}

// Node t's M2L list, whether it takes it, and what is taken at it or above: the whole warp calls.
__device__ void choose_node(const LocalLists& l, int t) {
  const KdNode& node = l.targets[t];
  const int parent = node.parent;
  const bool local_above = parent >= 0 && l.has_local[parent];
  const Span above = taken_of(l, parent);
  const int from = parent < 0 ? -1 : (l.m2l_count[parent] > 0 ? parent : l.local_from[parent]);
  int k = 0;
  const bool may = l.slot_size[t] > 0 && local_may_pay(l.mode, l.costs, node.count());
  const Span common = may ? common_of(l, t) : Span{};
  // The candidates: common entries not taken above that the acceptance allows.
  auto candidate = [&](int s) {
    return s >= 0 && !contains(l, above, s) && m2l_accepts(node, l.sources[s], l.theta);
  };
  for (int base = 0; base < common.size; base += kWarp) {
    const int j = base + lane();
    k += __popc(__ballot_sync(0xffffffffu, candidate(j < common.size ? common.data[j] : -1)));
  }
  if (may && !local_pays(l.mode, l.costs, k, node.count(), l.subtree[t], local_above)) k = 0;
  if (k > 0) {
    // The new entries, and with those taken above (all common entries of t) in their order.
    int* m2l = l.m2l + l.slot_offsets[t];
    int* taken = l.taken + l.slot_offsets[t];
    int written = 0, kept = 0;
    for (int base = 0; base < common.size; base += kWarp) {
      const int j = base + lane();
      const int s = j < common.size ? common.data[j] : -1;
      const bool in_above = s >= 0 && contains(l, above, s);
      const bool take = s >= 0 && !in_above && m2l_accepts(node, l.sources[s], l.theta);
      written += write_kept(take, s, m2l, written);
      kept += write_kept(take || in_above, s, taken, kept);
    }
    if (lane() == 0) l.taken_count[t] = kept;
  }
  if (lane() != 0) return;
  l.local_from[t] = from;
  l.m2l_count[t] = k;
  l.has_local[t] = local_above || k > 0;
  l.stores[t] = k > 0 ? 1 : 0;
  l.chunk_count[t] = (k + kLocalChunk - 1) / kLocalChunk;
  l.taken_owner[t] = k > 0 ? t : (parent >= 0 ? l.taken_owner[parent] : -1);
  // The device's operations: M2L, one L2L for a node that takes (from an ancestor's expansion)
  // and for a leaf that only inherits, L2P at a leaf's targets.
  if (k > 0) atomicAdd(&l.counters[0], static_cast<unsigned long long>(k));
  if ((k > 0 && from >= 0) || (k == 0 && local_above && node.is_leaf()))
    atomicAdd(&l.counters[1], 1ull);
  if (node.is_leaf() && (local_above || k > 0))
    atomicAdd(&l.counters[2], static_cast<unsigned long long>(node.count()));
}

__global__ void choose_root_kernel(LocalLists l) {
  if (blockIdx.x == 0 && threadIdx.x < kWarp) choose_node(l, 0);
}

// The children of inner nodes [first, first + n) of inner_by_level, a warp each.
__global__ void choose_kernel(LocalLists l, int first, int n) {
  const int t = level_child(l, first, n, warp_index());
  if (t >= 0) choose_node(l, t);
}

// Whether any node could take M2L entries: the first node that takes has no expansion above it,
// and its entries are among its first leaf's far entries that m2l_accepts allows; local_pays grows
// with the entries, so a node that would not pay with all of those takes none. One warp a node;
// `may_take` is set where one might.
__global__ void may_take_kernel(LocalLists l) {
  const long long w = warp_index();
  if (w >= l.num_nodes) return;
  const int t = static_cast<int>(w);
  const KdNode& node = l.targets[t];
  if (!(l.slot_size[t] > 0 && local_may_pay(l.mode, l.costs, node.count()))) return;
  int leaf = t;
  while (!l.targets[leaf].is_leaf()) leaf = l.targets[leaf].first_child;
  const Span far = far_list(l, l.leaf_of[leaf]);
  int k = 0;
  for (int base = 0; base < far.size; base += kWarp) {
    const int j = base + lane();
    const bool accepted = j < far.size && m2l_accepts(node, l.sources[far.data[j]], l.theta);
    k += __popc(__ballot_sync(0xffffffffu, accepted));
  }
  if (lane() == 0 && local_pays(l.mode, l.costs, k, node.count(), l.subtree[t], false))
    atomicOr(l.may_take, 1);
}

// Each leaf's far entries not taken at it or above: counted, or written with their orders; one
// warp a leaf.
template <bool Fill>
__global__ void m2p_kernel(LocalLists l) {
  const long long w = warp_index();
  if (w >= l.num_leaves) return;
  const int leaf = static_cast<int>(w);
  const Span taken = taken_of(l, l.leaves[leaf]);
  const int first = l.far_offsets[leaf], last = l.far_offsets[leaf + 1];
  int n = 0;
  for (int base = first; base < last; base += kWarp) {
    const int k = base + lane();
    const int s = k < last ? l.far_nodes[k] : -1;
    const bool keep = s >= 0 && !contains(l, taken, s);
    const unsigned mask = __ballot_sync(0xffffffffu, keep);
    if (Fill && keep) {
      const int at = l.m2p_offsets[leaf] + n + __popc(mask & ((1u << lane()) - 1));
      l.m2p_nodes[at] = s;
      l.m2p_orders[at] = l.far_orders[k];
    }
    n += __popc(mask);
  }
  if (!Fill && lane() == 0) l.m2p_count[leaf] = n;
}

void check_launch(const char* what) {
  VORTEX_CUDA_CHECK_LAUNCH(what);
}

int levels_of(const std::vector<int>& level_start) {
  return static_cast<int>(level_start.size()) - 1;
}

}  // namespace

namespace {
// Room for n, at least one element, so that every pointer is valid.
template <class T>
T* room(DeviceBuffer<T>& b, std::size_t n) {
  return b.reserve(std::max<std::size_t>(n, 1));
}
template <class T>
std::size_t growth(const DeviceBuffer<T>& b, std::size_t n) {
  return n > b.capacity() ? n * sizeof(T) : 0;
}
}  // namespace

void LocalListStorage::attach(LocalLists& l, int nodes, int leaves, int sources) {
  const std::size_t n = nodes;
  l.num_nodes = nodes;
  l.num_leaves = leaves;
  l.num_sources = sources;
  l.source_begin = room(source_begin_, sources);
  l.leaf_of = room(leaf_of_, n);
  l.room = room(room_, n);
  l.subtree = room(subtree_, n);
  l.common_count = room(common_count_, n);
  l.taken_count = room(taken_count_, n);
  l.taken_owner = room(taken_owner_, n);
  l.m2l_count = room(m2l_count_, n);
  l.local_from = room(local_from_, n);
  l.chunk_count = room(chunk_count_, n);
  l.stores = room(stores_, n);
  l.chunk_offsets = room(chunk_offsets_, n + 1);
  l.stored_index = room(stored_index_, n + 1);
  l.slot_size = room(slot_size_, n);
  l.slot_offsets = room(slot_offsets_, n + 1);
  l.has_local = room(has_local_, n);
  l.m2p_count = room(m2p_count_, leaves);
  l.m2p_offsets = room(m2p_offsets_, std::size_t(leaves) + 1);
  l.counters = room(counters_, 3);
  l.may_take = room(may_take_, 1);
}

std::size_t LocalListStorage::slot_growth(long long slots) const {
  const std::size_t n = slots;
  return growth(common_, n) + growth(taken_, n) + growth(m2l_, n);
}

void LocalListStorage::attach_slots(LocalLists& l, long long slots) {
  l.common = room(common_, slots);
  l.taken = room(taken_, slots);
  l.m2l = room(m2l_, slots);
}

std::size_t LocalListStorage::m2p_growth(long long far_entries) const {
  const std::size_t n = far_entries;
  return growth(m2p_nodes_, n) + growth(m2p_orders_, n);
}

void LocalListStorage::attach_m2p(LocalLists& l, long long far_entries) {
  l.m2p_nodes = room(m2p_nodes_, far_entries);
  l.m2p_orders = room(m2p_orders_, far_entries);
}

void launch_local_rooms(const LocalLists& l, const std::vector<int>& level_start,
                        DeviceBuffer<unsigned char>& scan_temp, cudaStream_t stream) {
  if (l.num_nodes == 0) return;
  VORTEX_CUDA_CHECK(cudaMemsetAsync(l.leaf_of, 0xff, l.num_nodes * sizeof(int), stream));
  if (l.num_sources > 0) key_kernel<<<blocks_for(l.num_sources), kBlock, 0, stream>>>(l);
  check_launch("local key_kernel");
  if (l.num_leaves > 0) leaf_kernel<<<blocks_for(l.num_leaves), kBlock, 0, stream>>>(l);
  check_launch("local leaf_kernel");
  for (int level = levels_of(level_start) - 1; level >= 0; --level) {
    const int n = level_start[level + 1] - level_start[level];
    if (n == 0) continue;
    room_kernel<<<blocks_for(n), kBlock, 0, stream>>>(l, level_start[level], n);
    check_launch("local room_kernel");
  }
  exclusive_offsets(l.slot_size, l.slot_offsets, l.num_nodes, scan_temp, stream);
}

void launch_local_may_take(const LocalLists& l, cudaStream_t stream) {
  VORTEX_CUDA_CHECK(cudaMemsetAsync(l.may_take, 0, sizeof(int), stream));
  if (l.num_nodes == 0) return;
  may_take_kernel<<<blocks_for(static_cast<long long>(l.num_nodes) * kWarp), kBlock, 0, stream>>>(
      l);
  check_launch("local may_take_kernel");
}

void launch_local_choice(const LocalLists& l, const std::vector<int>& level_start,
                         DeviceBuffer<unsigned char>& scan_temp, cudaStream_t stream) {
  if (l.num_nodes == 0) return;
  const int levels = levels_of(level_start);
  for (int level = levels - 1; level >= 0; --level) {
    const int n = level_start[level + 1] - level_start[level];
    if (n == 0) continue;
    common_kernel<<<blocks_for(static_cast<long long>(n) * kWarp), kBlock, 0, stream>>>(
        l, level_start[level], n);
    check_launch("local common_kernel");
  }
  choose_root_kernel<<<1, kWarp, 0, stream>>>(l);
  check_launch("local choose_root_kernel");
  for (int level = 0; level < levels; ++level) {
    const int n = level_start[level + 1] - level_start[level];
    if (n == 0) continue;
    const long long threads = static_cast<long long>(n) * kLevelChildren * kWarp;
    choose_kernel<<<blocks_for(threads), kBlock, 0, stream>>>(l, level_start[level], n);
    check_launch("local choose_kernel");
  }
  exclusive_offsets(l.chunk_count, l.chunk_offsets, l.num_nodes, scan_temp, stream);
  exclusive_offsets(l.stores, l.stored_index, l.num_nodes, scan_temp, stream);
}

void launch_local_m2p(const LocalLists& l, DeviceBuffer<unsigned char>& scan_temp,
                      cudaStream_t stream) {
  if (l.num_leaves == 0) return;
  const unsigned blocks = blocks_for(static_cast<long long>(l.num_leaves) * kWarp);
  m2p_kernel<false><<<blocks, kBlock, 0, stream>>>(l);
  check_launch("local m2p_kernel");
  exclusive_offsets(l.m2p_count, l.m2p_offsets, l.num_leaves, scan_temp, stream);
  m2p_kernel<true><<<blocks, kBlock, 0, stream>>>(l);
  check_launch("local m2p_kernel");
}

}  // namespace vortex::gpu
