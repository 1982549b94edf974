#pragma once
// The shape of a tree the device builds (gpu::TreeShape), laid out on the host from the same
// topology as the host builder's (tree/kdtree_topology.hpp).

#include "vortex/gpu/device_tree.hpp"

namespace vortex::detail {

gpu::TreeShape make_tree_shape(int n, int bucket, int arity);

// The deepest stack a depth-first walk of the tree holds: (arity - 1) entries per level, plus one.
int walk_stack_bound(const gpu::TreeShape& shape);

}  // namespace vortex::detail
