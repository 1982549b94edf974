// Interaction lists on the device (tree_launch.hpp): one thread per target leaf walks the source
// tree depth first, exactly as the host walk (interaction_lists.cpp), so both emit the same lists.

#include <cub/device/device_scan.cuh>

#include "vortex/gpu/check.hpp"
#include "vortex/gpu/tree_launch.hpp"

namespace vortex::gpu {
namespace {

// Counts (Fill = false) or writes (Fill = true) the lists of target leaf `leaf`.
template <bool Fill>
__device__ void walk(const ListWalk& w, int leaf) {
  const KdNode& target = w.targets[w.target_leaves[leaf]];
  int stack[kListStack];
  int top = 0;
  stack[top++] = 0;
  int near = 0, far = 0;
  int last_end = -1;  // end of the last near range, to merge the next one when they abut
  Range* near_out = Fill ? w.near_ranges + w.near_offsets[leaf] : nullptr;
  int* far_out = Fill ? w.far_nodes + w.far_offsets[leaf] : nullptr;
  unsigned char* order_out = Fill ? w.far_orders + w.far_offsets[leaf] : nullptr;
  while (top > 0) {
    const int s = stack[--top];
    const KdNode& source = w.sources[s];
    if (const int order = far_order(target, source, w.criteria)) {
      if (Fill) {
        far_out[far] = s;
        order_out[far] = static_cast<unsigned char>(order);
      }
      ++far;
    } else if (source.is_leaf()) {
      if (near > 0 && last_end == source.begin) {
        if (Fill) near_out[near - 1].end = source.end;
      } else {
        if (Fill) near_out[near] = Range{source.begin, source.end};
        ++near;
      }
      last_end = source.end;
    } else {
      // Children pushed in reverse, so that they are visited in tree order.
      for (int c = source.num_children - 1; c >= 0; --c) stack[top++] = source.first_child + c;
    }
  }
  if (!Fill) {
    w.near_count[leaf] = near;
    w.far_count[leaf] = far;
  }
}

template <bool Fill>
__global__ void list_kernel(ListWalk w) {
  const int leaf = blockIdx.x * blockDim.x + threadIdx.x;
  if (leaf < w.num_target_leaves) walk<Fill>(w, leaf);
}

template <bool Fill>
void launch(const ListWalk& w, cudaStream_t stream) {
  if (w.num_target_leaves == 0) return;
  constexpr int threads = 64;
  list_kernel<Fill><<<(w.num_target_leaves + threads - 1) / threads, threads, 0, stream>>>(w);
  VORTEX_CUDA_CHECK_LAUNCH("list_kernel");
}

}  // namespace

void launch_list_counts(const ListWalk& w, cudaStream_t stream) {
  launch<false>(w, stream);
}
void launch_list_fill(const ListWalk& w, cudaStream_t stream) {
  launch<true>(w, stream);
}

void exclusive_offsets(const int* counts, int* offsets, int n, DeviceBuffer<unsigned char>& temp,
                       cudaStream_t stream) {
  // offsets[0] = 0, offsets[i + 1] = counts[0] + ... + counts[i].
  VORTEX_CUDA_CHECK(cudaMemsetAsync(offsets, 0, sizeof(int), stream));
  if (n == 0) return;
  std::size_t bytes = 0;
  VORTEX_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, counts, offsets + 1, n, stream));
  temp.reserve(bytes);
  VORTEX_CUDA_CHECK(
      cub::DeviceScan::InclusiveSum(temp.data(), bytes, counts, offsets + 1, n, stream));
}

}  // namespace vortex::gpu
