// The device-built treecode's work plan on the device (device_plan.hpp): per target leaf the same
// arithmetic as plan_tree, then prefix sums place every leaf's groups, items and cut ranges where
// the host's sequential plan puts them, and a stable sort on the cost bucket gives the launch
// order.

#include <algorithm>
#include <stdexcept>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device_plan.hpp"

namespace vortex::gpu {
namespace detail {
namespace {

// Per-leaf columns of leaf_ (long long each).
enum Column {
  kGroups,
  kSources,
  kMerged,
  kFar,
  kBegin,
  kSize,
  kNearWork,
  kFarWork,
  kNearPieces,
  kNearItems,
  kCuts,
  kFarItems,
  kNearPiece,
  kFarPiece,
  kColumns
};
// Per-leaf counts scanned into offsets (int each, num_leaves + 1 entries per column).
enum Count {
  kGroupCount,
  kMergedCount,
  kNearItemCount,
  kCutCount,
  kFarItemCount,
  kSlotCount,
  kCounts
};

__device__ long long least(long long a, long long b) {
  return a < b ? a : b;
}

struct Columns {
  long long* base;
  int leaves;
  __device__ long long& operator()(int column, int leaf) const {
    return base[static_cast<long long>(column) * leaves + leaf];
  }
};

__global__ void leaf_stats_kernel(DeviceLists in, int b, Columns col) {
  const int leaf = blockIdx.x * blockDim.x + threadIdx.x;
  if (leaf >= in.num_leaves) return;
  const KdNode& node = in.target_nodes[in.target_leaves[leaf]];
  const long long size = node.end - node.begin, groups = ceil_div(size, b);
  long long sources = 0, merged = 0;
  for (int e = in.near_offsets[leaf]; e < in.near_offsets[leaf + 1]; ++e) {
    const int n = in.near_entries[e].size();
    if (n <= 0) continue;
    sources += n;
    ++merged;
  }
  const long long far = in.far_offsets ? in.far_offsets[leaf + 1] - in.far_offsets[leaf] : 0;
  col(kGroups, leaf) = groups;
  col(kSources, leaf) = sources;
  col(kMerged, leaf) = merged;
  col(kFar, leaf) = far;
  col(kBegin, leaf) = node.begin;
  col(kSize, leaf) = size;
  col(kNearWork, leaf) = groups * sources;
  col(kFarWork, leaf) = groups * far;
}

// Cut ranges of one group's list cut into pieces of `piece` sources (as split_near).
__device__ long long count_cuts(const DeviceLists& in, int leaf, long long piece) {
  long long room = piece, cuts = 0;
  for (int e = in.near_offsets[leaf]; e < in.near_offsets[leaf + 1]; ++e) {
    const Range r = in.near_entries[e];
    for (long long begin = r.begin; begin < r.end;) {
      const long long take = least(r.end - begin, room);
      begin += take;
      room -= take;
      ++cuts;
      if (room == 0) room = piece;
    }
  }
  return cuts;
}

__global__ void leaf_items_kernel(DeviceLists in, Balance balance, const long long* totals,
                                  Columns col, int* counts) {
  const int leaf = blockIdx.x * blockDim.x + threadIdx.x;
  const int leaves = in.num_leaves, stride = leaves + 1;
  if (leaf > leaves) return;
  if (leaf == leaves) {  // the extra entry, so that the exclusive sums end with the totals
    for (int k = 0; k < kCounts; ++k) counts[k * stride + leaf] = 0;
    return;
  }
  const PieceLimits limits = piece_limits(totals[0], totals[1], balance);
  const long long s = col(kSources, leaf), nf = col(kFar, leaf), groups = col(kGroups, leaf);
  const LeafPieces pieces = leaf_pieces(s, nf, limits, balance);
  const long long near_pieces = pieces.near_pieces, near_piece = pieces.near_piece;
  const long long far_piece = pieces.far_piece;
  long long near_items = 0, cuts = 0;
  if (near_pieces == 1) {
    near_items = 1;
  } else if (near_pieces > 1) {
    near_items = ceil_div(s, near_piece);
    cuts = count_cuts(in, leaf, near_piece);
  }
  const long long far_items = pieces.far_pieces > 0 ? ceil_div(nf, far_piece) : 0;
  col(kNearPieces, leaf) = near_pieces;
  col(kNearItems, leaf) = near_items;
  col(kCuts, leaf) = cuts;
  col(kFarItems, leaf) = far_items;
  col(kNearPiece, leaf) = near_piece;
  col(kFarPiece, leaf) = far_piece;
  counts[kGroupCount * stride + leaf] = static_cast<int>(groups);
  counts[kMergedCount * stride + leaf] = static_cast<int>(col(kMerged, leaf));
  counts[kNearItemCount * stride + leaf] = static_cast<int>(groups * near_items);
  counts[kCutCount * stride + leaf] = static_cast<int>(groups * cuts);
  counts[kFarItemCount * stride + leaf] = static_cast<int>(groups * far_items);
  counts[kSlotCount * stride + leaf] = static_cast<int>(groups * (near_items + far_items));
}

__global__ void sizes_kernel(const int* offsets, int leaves, long long* sizes) {
  if (threadIdx.x < kCounts) sizes[threadIdx.x] = offsets[threadIdx.x * (leaves + 1) + leaves];
}

struct Outputs {
  TargetGroup* groups;
  int* group_slots;
  WorkItem* items;      // near items then far items, in creation order
  unsigned char* keys;  // their cost buckets
  Range* ranges;        // merged ranges, then the cut ranges
  int num_near_items, num_merged, num_groups, num_slots;
  // Pair and multipole interactions, then the largest near and far item's.
  unsigned long long* counts;
};

__global__ void fill_kernel(DeviceLists in, int b, Columns col, const int* offsets, Outputs out) {
  const int leaf = blockIdx.x * blockDim.x + threadIdx.x;
  const int leaves = in.num_leaves, stride = leaves + 1;
  if (leaf >= leaves) return;
  auto offset = [&](int k) { return offsets[k * stride + leaf]; };
  // The leaf's merged (non-empty) ranges.
  const int first = offset(kMergedCount);
  int k = first;
  for (int e = in.near_offsets[leaf]; e < in.near_offsets[leaf + 1]; ++e)
    if (in.near_entries[e].size() > 0) out.ranges[k++] = in.near_entries[e];
  const int last = k;
  const long long s = col(kSources, leaf), nf = col(kFar, leaf);
  const long long near_pieces = col(kNearPieces, leaf), near_items = col(kNearItems, leaf);
  const long long cuts = col(kCuts, leaf), far_items = col(kFarItems, leaf);
  const long long near_piece = col(kNearPiece, leaf), far_piece = col(kFarPiece, leaf);
  const int far_lo = in.far_offsets ? in.far_offsets[leaf] : 0;
  const long long begin = col(kBegin, leaf), size = col(kSize, leaf);
  const long long groups = col(kGroups, leaf);
  unsigned long long pairs = 0, multipoles = 0, near_max = 0, far_max = 0;
  const auto largest = [](unsigned long long& m, long long targets, long long work) {
    m = max(m, static_cast<unsigned long long>(targets) * static_cast<unsigned long long>(work));
  };
  for (long long g = 0; g < groups; ++g) {
    const int group = offset(kGroupCount) + static_cast<int>(g);
    const int count = static_cast<int>(least(b, size - g * b));
    out.groups[group] = TargetGroup{static_cast<int>(begin + g * b), count};
    int slot = offset(kSlotCount) + static_cast<int>(g * (near_items + far_items));
    out.group_slots[group] = slot;
    int item = offset(kNearItemCount) + static_cast<int>(g * near_items);
    if (near_pieces == 1) {
      out.items[item] = WorkItem{group, first, last, slot++};
      out.keys[item] = static_cast<unsigned char>(cost_bucket(s));
      largest(near_max, count, s);
    } else if (near_pieces > 1) {
      // Cut ranges of this group go after every merged range, leaf by leaf, group by group.
      int cut = out.num_merged + offset(kCutCount) + static_cast<int>(g * cuts);
      int item_first = cut;
      long long room = near_piece, filled = 0;
      for (int e = first; e < last; ++e) {
        const Range r = out.ranges[e];
        for (int at = r.begin; at < r.end;) {
          const int take = static_cast<int>(least(r.end - at, room));
          out.ranges[cut++] = Range{at, at + take};
          at += take;
          room -= take;
          filled += take;
          if (room == 0) {
            out.items[item] = WorkItem{group, item_first, cut, slot++};
            out.keys[item++] = static_cast<unsigned char>(cost_bucket(filled));
            largest(near_max, count, filled);
            item_first = cut;
            filled = 0;
            room = near_piece;
          }
        }
      }
      if (cut > item_first) {
        out.items[item] = WorkItem{group, item_first, cut, slot++};
        out.keys[item++] = static_cast<unsigned char>(cost_bucket(filled));
        largest(near_max, count, filled);
      }
    }
    if (s > 0) pairs += static_cast<unsigned long long>(count) * s;
    if (far_items > 0) {
      int far_item = out.num_near_items + offset(kFarItemCount) + static_cast<int>(g * far_items);
      for (long long e = 0; e < nf; e += far_piece) {
        const long long n = least(far_piece, nf - e);
        out.items[far_item] =
            WorkItem{group, far_lo + static_cast<int>(e), far_lo + static_cast<int>(e + n), slot++};
        out.keys[far_item++] = static_cast<unsigned char>(cost_bucket(n));
        largest(far_max, count, n);
      }
      multipoles += static_cast<unsigned long long>(count) * nf;
    }
  }
  if (leaf == leaves - 1) out.group_slots[out.num_groups] = out.num_slots;
  if (pairs) atomicAdd(out.counts, pairs);
  if (multipoles) atomicAdd(out.counts + 1, multipoles);
  if (near_max) atomicMax(out.counts + 2, near_max);
  if (far_max) atomicMax(out.counts + 3, far_max);
}

int blocks_for(long long n, int threads) {
  return static_cast<int>((n + threads - 1) / threads);
}

// The leaves' statistics and work totals, their item counts, and the offsets of every count
// column (exclusive sums); the totals' sizes at totals + 2. Zeros without leaves.
void count_items(const DeviceLists& in, const Balance& balance, const Columns& col,
                 long long* totals, int* counts, int* offsets, DeviceBuffer<unsigned char>& temp_,
                 cudaStream_t stream) {
  constexpr int t = 128;
  const int leaves = in.num_leaves, stride = leaves + 1;
  if (leaves > 0) {
    leaf_stats_kernel<<<blocks_for(leaves, t), t, 0, stream>>>(in, balance.block_threads, col);
    VORTEX_CUDA_CHECK_LAUNCH("leaf_stats_kernel");
    std::size_t bytes = 0, need = 0;
    VORTEX_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, need, col.base, totals, leaves));
    VORTEX_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts, offsets, stride));
    need = std::max(need, bytes);
    void* temp = temp_.reserve(need);
    bytes = need;
    VORTEX_CUDA_CHECK(cub::DeviceReduce::Sum(
        temp, bytes, col.base + std::size_t(kNearWork) * leaves, totals, leaves, stream));
    bytes = need;
    VORTEX_CUDA_CHECK(cub::DeviceReduce::Sum(temp, bytes, col.base + std::size_t(kFarWork) * leaves,
                                             totals + 1, leaves, stream));
    leaf_items_kernel<<<blocks_for(stride, t), t, 0, stream>>>(in, balance, totals, col, counts);
    VORTEX_CUDA_CHECK_LAUNCH("leaf_items_kernel");
    for (int k = 0; k < kCounts; ++k) {
      bytes = need;
      VORTEX_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, bytes, counts + k * stride,
                                                      offsets + k * stride, stride, stream));
    }
    sizes_kernel<<<1, 32, 0, stream>>>(offsets, leaves, totals + 2);
    VORTEX_CUDA_CHECK_LAUNCH("sizes_kernel");
  } else {
    VORTEX_CUDA_CHECK(cudaMemsetAsync(totals, 0, (2 + kCounts) * sizeof(long long), stream));
  }
}

// Items [first, first + n) of `items` sorted stably by their 8-bit cost keys into `sorted` (the
// keys at `keys`, their sorted copy after the `total` keys).
void sort_by_cost(DeviceBuffer<unsigned char>& temp_, unsigned char* keys, std::size_t total,
                  WorkItem* items, int first, int n, WorkItem* sorted, cudaStream_t stream) {
  if (n == 0) return;
  std::size_t bytes = 0;
  VORTEX_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
      nullptr, bytes, keys + first, keys + total + first, items + first, sorted, n, 0, 8, stream));
  void* temp = temp_.capacity() >= bytes ? temp_.data() : nullptr;
  if (!temp) {
    VORTEX_CUDA_CHECK(cudaStreamSynchronize(stream));  // the old temp may still be in use
    temp = temp_.reserve(bytes);
  }
  VORTEX_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, keys + first, keys + total + first,
                                                    items + first, sorted, n, 0, 8, stream));
}

}  // namespace
}  // namespace detail

DevicePlanView DevicePlanner::plan(const DeviceLists& in, const Balance& balance,
                                   cudaStream_t stream) {
  using namespace detail;
  if (balance.block_threads < 1) throw std::invalid_argument("device plan: block_threads < 1");
  const int leaves = in.num_leaves, stride = leaves + 1;
  const Columns col{leaf_.reserve(std::size_t(kColumns) * std::max(leaves, 1)), leaves};
  long long* totals = totals_.reserve(2 + kCounts);
  int* counts = offsets_.reserve(2 * std::size_t(kCounts) * stride);
  int* offsets = counts + std::size_t(kCounts) * stride;
  unsigned long long* interactions = counts_.reserve(4);
  VORTEX_CUDA_CHECK(cudaMemsetAsync(interactions, 0, 4 * sizeof(unsigned long long), stream));
  constexpr int t = 128;
  DevicePlanView view;
  view.block_threads = balance.block_threads;
  count_items(in, balance, col, totals, counts, offsets, temp_, stream);
  long long* sizes = sizes_host_.reserve(kCounts);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(sizes, totals + 2, kCounts * sizeof(long long),
                                    cudaMemcpyDeviceToHost, stream));
  VORTEX_CUDA_CHECK(cudaStreamSynchronize(stream));
  view.num_groups = static_cast<int>(sizes[kGroupCount]);
  view.num_near_items = static_cast<int>(sizes[kNearItemCount]);
  view.num_far_items = static_cast<int>(sizes[kFarItemCount]);
  view.num_slots = static_cast<int>(sizes[kSlotCount]);
  view.num_near_ranges = static_cast<int>(sizes[kMergedCount] + sizes[kCutCount]);
  const std::size_t items = std::size_t(view.num_near_items) + view.num_far_items;

  Outputs out;
  out.groups = groups_.reserve(std::max(view.num_groups, 1));
  out.group_slots = group_slots_.reserve(view.num_groups + 1);
  out.items = items_.reserve(std::max<std::size_t>(items, 1));
  unsigned char* keys = keys_.reserve(2 * std::max<std::size_t>(items, 1));
  out.keys = keys;
  out.ranges = ranges_.reserve(std::max(view.num_near_ranges, 1));
  out.num_near_items = view.num_near_items;
  out.num_merged = static_cast<int>(sizes[kMergedCount]);
  out.num_groups = view.num_groups;
  out.num_slots = view.num_slots;
  out.counts = interactions;
  WorkItem* near = near_items_.reserve(std::max(view.num_near_items, 1));
  WorkItem* far = far_items_.reserve(std::max(view.num_far_items, 1));
  if (leaves > 0) {
    fill_kernel<<<blocks_for(leaves, t), t, 0, stream>>>(in, balance.block_threads, col, offsets,
                                                         out);
    VORTEX_CUDA_CHECK_LAUNCH("fill_kernel");
  } else {
    VORTEX_CUDA_CHECK(cudaMemsetAsync(out.group_slots, 0, sizeof(int), stream));
  }
  // Launch order: a stable sort of each kind on its cost bucket (8 bits).
  sort_by_cost(temp_, keys, items, out.items, 0, view.num_near_items, near, stream);
  sort_by_cost(temp_, keys, items, out.items, view.num_near_items, view.num_far_items, far, stream);
  unsigned long long* counts_host = counts_host_.reserve(4);
  VORTEX_CUDA_CHECK(cudaMemcpyAsync(counts_host, interactions, 4 * sizeof(unsigned long long),
                                    cudaMemcpyDeviceToHost, stream));
  view.groups = out.groups;
  view.group_slots = out.group_slots;
  view.near_items = near;
  view.far_items = far;
  view.near_ranges = out.ranges;
  return view;
}

}  // namespace vortex::gpu
