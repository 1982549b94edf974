#pragma once
// The stages of the treecode on the GPU (cuda_tree_sum.cpp runs them in order):
//   host: plan work items, pack particles -> upload -> near kernel starts (near_field_cuda.cpp)
//   host: P2M/M2M and M2V (compute_multipoles) while the GPU sums the near field
//   copy stream: far lists and velocity expansions -> far kernel               (far_field_cuda.cpp)
//   combine -> download

#include "backend/cuda_workspace.hpp"

namespace vortex::detail {

// How the tree sums are cut into blocks on this device, for target leaves of at most
// `largest_leaf` targets.
g::Balance tree_balance(const CudaWorkspace& ws, const ResolvedOptions& options, bool gradient,
                        int largest_leaf);

// Work items of the near and far sums from the plan's lists, sized for this device.
g::WorkPlan plan_tree_work(CudaWorkspace& ws, const TreePlan& plan, const ResolvedOptions& options,
                           bool gradient);

// Packs and uploads the particles and the near items, then launches the near field on the compute
// stream. Returns the host seconds spent packing.
double start_near_field(CudaWorkspace& ws, const TreePlan& plan, const g::WorkPlan& work,
                        const ResolvedOptions& options, bool gradient);

// Uploads the far lists on the copy stream (call before the multipoles, so that they travel while
// the host computes).
void upload_far_lists(CudaWorkspace& ws, const TreePlan& plan, const g::WorkPlan& work);

// Packs and uploads the velocity expansions and centers, then launches the far field after them.
// Returns the host seconds spent packing.
double start_far_field(CudaWorkspace& ws, const TreePlan& plan, const g::WorkPlan& work,
                       const ResolvedOptions& options, bool gradient);

}  // namespace vortex::detail
