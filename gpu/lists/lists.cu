// Interaction lists on the device (tree_launch.hpp): the host walk (lists/interaction_lists.cpp)
// split at a frontier of source nodes, one thread per (frontier node, target leaf), so that the
// lists are entry for entry the host's whatever the frontier.

#include <cub/device/device_scan.cuh>

#include <algorithm>

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/tree_launch.hpp"

namespace vortex::gpu {
namespace {

// The near ranges of one slot, merged where they abut as the serial walk merges them. When
// filling, a range's begin and end are written by exactly one slot each: a slot whose first range
// continues the previous slot's last one (flag kMergedFirst) writes only its end, and a slot whose
// last range the next slot continues (kContinuedLast) leaves that end to it.
constexpr int kMergedFirst = 1, kContinuedLast = 2;

template <bool Fill>
struct SlotNear {
  Range* out = nullptr;
  int flags = 0;
  int count = 0, first_begin = -1;
  int begin = -1, end = -1;  // the open range

  __device__ void add(int b, int e) {
    if (count > 0 && end == b) {
      end = e;
      return;
    }
    if (count > 0) flush(false);
    if (count == 0) first_begin = b;
    begin = b, end = e;
    ++count;
  }
  __device__ void flush(bool last) {  // writes the open range, number count - 1
    if (!Fill || count == 0) return;
    Range& r = out[count - 1];
    if (!(count == 1 && (flags & kMergedFirst))) r.begin = begin;
    if (!(last && (flags & kContinuedLast))) r.end = end;
  }
};

// Counts (Fill = false) or writes (Fill = true) the entries of one slot: target leaf `leaf`
// against frontier node `slot`.
template <bool Fill>
__device__ void walk_slot(const ListWalk& w, int slot, int leaf) {
  const KdNode& target = w.targets[w.target_leaves[leaf]];
  const long long at = static_cast<long long>(slot) * w.num_target_leaves + leaf;
  const int f = w.frontier[slot];
  const int f_begin = w.sources[f].begin;
  SlotNear<Fill> near;
  int far = 0;
  int* far_out = nullptr;
  unsigned char* order_out = nullptr;
  if (Fill) {
    near.out = w.near_ranges + w.near_offsets[leaf] + w.slot_near[at];
    near.flags = w.slot_first[at];
    far_out = w.far_nodes + w.far_offsets[leaf] + w.slot_far[at];
    order_out = w.far_orders + w.far_offsets[leaf] + w.slot_far[at];
  }
  auto emit_far = [&](int s, int order) {
    if (Fill) {
      far_out[far] = s;
      order_out[far] = static_cast<unsigned char>(order);
    }
    ++far;
  };
  // From the root down to the frontier node: an ancestor accepted as far is this slot's only
  // entry, emitted by the first slot under it.
  int s = 0;
  bool walk = true;
  while (s != f) {
    const KdNode& a = w.sources[s];
    if (const int order = far_order(target, a, w.criteria)) {
      if (a.begin == f_begin) emit_far(s, order);
      walk = false;
      break;
    }
    int c = a.first_child;
    while (w.sources[c].end <= f_begin) ++c;
    s = c;
  }
  if (walk) {
    int stack[kListStack];
    int top = 0;
    stack[top++] = f;
    while (top > 0) {
      const int k = stack[--top];
      const KdNode& source = w.sources[k];
      if (const int order = far_order(target, source, w.criteria)) {
        emit_far(k, order);
      } else if (source.is_leaf()) {
        near.add(source.begin, source.end);
      } else {
        // Children pushed in reverse, so that they are visited in tree order.
        for (int c = source.num_children - 1; c >= 0; --c) stack[top++] = source.first_child + c;
      }
    }
  }
  if (Fill) {
    near.flush(true);
  } else {
    w.slot_near[at] = near.count;
    w.slot_far[at] = far;
    w.slot_first[at] = near.first_begin;
    w.slot_last[at] = near.end;
  }
}

// Slot-major threads: a warp walks one frontier node for 32 neighbouring target leaves.
template <bool Fill>
__global__ void list_kernel(ListWalk w) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<long long>(w.num_slots) * w.num_target_leaves) return;
  walk_slot<Fill>(w, static_cast<int>(i / w.num_target_leaves),
                  static_cast<int>(i % w.num_target_leaves));
}

// Per target leaf, over its slots in order: the slots' counts become offsets within the leaf's
// lists, abutting near ranges of consecutive slots are merged (flags), and the leaf's totals are
// written. Each slot's four counters are loaded together one slot ahead, and the last slot with
// near ranges keeps its flags in a register until the next such slot settles them: one memory
// round trip per slot, overlapped with the previous slot's work.
__global__ void slot_offsets_kernel(ListWalk w) {
  const int leaf = blockIdx.x * blockDim.x + threadIdx.x;
  if (leaf >= w.num_target_leaves) return;
  const long long n = w.num_target_leaves;
  int near = 0, far = 0;
  long long last = -1;  // the last slot with near ranges, its end and its flags
  int last_end = -1, last_flags = 0;
  int count = w.slot_near[leaf], far_count = w.slot_far[leaf], first = w.slot_first[leaf],
      end = w.slot_last[leaf];
  for (int slot = 0; slot < w.num_slots; ++slot) {
    const long long at = slot * n + leaf;
    const int c = count, f = far_count, b = first, e = end;
    if (slot + 1 < w.num_slots) {
      const long long next = at + n;
      count = w.slot_near[next];
      far_count = w.slot_far[next];
      first = w.slot_first[next];
      end = w.slot_last[next];
    }
    w.slot_far[at] = far;
    far += f;
    if (c > 0) {
      const bool merged = last >= 0 && last_end == b;
      if (last >= 0) w.slot_first[last] = last_flags | (merged ? kContinuedLast : 0);
      near -= merged ? 1 : 0;
      w.slot_near[at] = near;
      near += c;
      last = at;
      last_end = e;
      last_flags = merged ? kMergedFirst : 0;
    } else {
      w.slot_near[at] = near;
      w.slot_first[at] = 0;
    }
  }
  if (last >= 0) w.slot_first[last] = last_flags;
  w.near_count[leaf] = near;
  w.far_count[leaf] = far;
}

template <bool Fill>
void launch_walk(const ListWalk& w, cudaStream_t stream) {
  const long long threads = static_cast<long long>(w.num_slots) * w.num_target_leaves;
  if (threads == 0) return;
  constexpr int block = 128;
  list_kernel<Fill><<<static_cast<unsigned>((threads + block - 1) / block), block, 0, stream>>>(w);
  VORTEX_CUDA_CHECK_LAUNCH("list_kernel");
}

}  // namespace

std::vector<int> walk_frontier(const std::vector<KdNode>& sources, int depth) {
  std::vector<int> frontier;
  for (int k = 0; k < static_cast<int>(sources.size()); ++k)
    if (sources[k].level == depth || (sources[k].level < depth && sources[k].is_leaf()))
      frontier.push_back(k);
  std::sort(frontier.begin(), frontier.end(),
            [&](int a, int b) { return sources[a].begin < sources[b].begin; });
  return frontier;
}

std::vector<int> pick_walk_frontier(const std::vector<KdNode>& sources, int target_leaves) {
  // The frontier's size at each depth: the nodes there and the leaves above.
  std::vector<long long> size(kMaxFrontierDepth + 1, 0);
  for (const KdNode& node : sources) {
    if (node.level > kMaxFrontierDepth) continue;
    ++size[node.level];
    if (node.is_leaf())
      for (int d = node.level + 1; d <= kMaxFrontierDepth; ++d) ++size[d];
  }
  int depth = 0;
  while (depth < kMaxFrontierDepth && size[depth + 1] * std::max(target_leaves, 1) <= kListThreads)
    ++depth;
  return walk_frontier(sources, depth);
}

void ListWalkSlots::prepare(const std::vector<int>& frontier, int target_leaves,
                            cudaStream_t stream) {
  num_slots = static_cast<int>(frontier.size());
  nodes.reserve(std::max(num_slots, 1));
  // A pageable source: the copy has completed when cudaMemcpyAsync returns.
  if (num_slots > 0)
    VORTEX_CUDA_CHECK(cudaMemcpyAsync(nodes.data(), frontier.data(), num_slots * sizeof(int),
                                      cudaMemcpyHostToDevice, stream));
  const std::size_t n = std::max<std::size_t>(1, std::size_t(num_slots) * target_leaves);
  for (auto* b : {&near, &far, &first, &last}) b->reserve(n);
}

void ListWalkSlots::attach(ListWalk& w) const {
  w.frontier = nodes.data();
  w.num_slots = num_slots;
  w.slot_near = near.data();
  w.slot_far = far.data();
  w.slot_first = first.data();
  w.slot_last = last.data();
}

void launch_list_counts(const ListWalk& w, cudaStream_t stream) {
  if (w.num_target_leaves == 0) return;
  launch_walk<false>(w, stream);
  constexpr int block = 128;
  slot_offsets_kernel<<<(w.num_target_leaves + block - 1) / block, block, 0, stream>>>(w);
  VORTEX_CUDA_CHECK_LAUNCH("slot_offsets_kernel");
}
void launch_list_fill(const ListWalk& w, cudaStream_t stream) {
  launch_walk<true>(w, stream);
}

namespace {
template <class T>
void exclusive_offsets_of(const T* counts, T* offsets, int n, DeviceBuffer<unsigned char>& temp,
                          cudaStream_t stream) {
  // offsets[0] = 0, offsets[i + 1] = counts[0] + ... + counts[i].
  VORTEX_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(T), stream));
  if (n == 0) return;
  std::size_t bytes = 0;
  VORTEX_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, counts, offsets + 1, n, stream));
  temp.reserve(bytes);
  VORTEX_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(temp.data(), bytes, counts, offsets + 1, n, stream));
}
}  // namespace

void exclusive_offsets(const int* counts, int* offsets, int n, DeviceBuffer<unsigned char>& temp,
                       cudaStream_t stream) {
  exclusive_offsets_of(counts, offsets, n, temp, stream);
}
void exclusive_offsets(const long long* counts, long long* offsets, int n,
                       DeviceBuffer<unsigned char>& temp, cudaStream_t stream) {
  exclusive_offsets_of(counts, offsets, n, temp, stream);
}

}  // namespace vortex::gpu
