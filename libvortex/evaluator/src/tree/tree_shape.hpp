#pragma once
// The shape of a tree the device builds (gpu::TreeShape), laid out on the host from the same
// topology as the host builder's (tree/kdtree_topology.hpp), and the adaptive cuts that decide it.

#include <cuda_runtime_api.h>

#include <vector>

#include "tree/kdtree_topology.hpp"
#include "vortex/gpu/device_tree.hpp"

namespace vortex::detail {

// With the positions of `decided` (none when null).
gpu::TreeShape make_tree_shape(int n, int bucket, int arity, const DecidedCuts* decided = nullptr);

// Sets the tree's shape unless it is that of `last` (the same sizes and adaptive cuts as `now`);
// `last` becomes `now`.
void ensure_tree_shape(gpu::DeviceTree& tree, DecidedCuts& last, const DecidedCuts& now, int n,
                       int bucket, int arity, cudaStream_t stream);

// The adaptive cuts (vortex/math/tree_node.hpp) of the n points a tree began to build, as the
// host builder makes them: depth by depth, the device measures each adaptive piece, the host places
// its cut from the counts (and waits for them), the device makes the depth's cuts. Several trees,
// each on its own stream, go depth by depth together, so that one's kernels run while the host
// waits for another's counts. Each fills `decided` and `first_depth`, the first depth not cut.
struct AdaptiveJob {
  gpu::DeviceTree* tree = nullptr;
  int n = 0, bucket = 0;
  cudaStream_t stream = nullptr;
  DecidedCuts* decided = nullptr;
  int first_depth = 0;
};
void cut_adaptive_depths(std::vector<AdaptiveJob>& jobs);
// One tree's.
int cut_adaptive_depths(gpu::DeviceTree& tree, int n, int bucket, cudaStream_t stream,
                        DecidedCuts& decided);

// The deepest stack a depth-first walk of the tree holds: (arity - 1) entries per level, plus one.
int walk_stack_bound(const gpu::TreeShape& shape);

}  // namespace vortex::detail
