#pragma once
// The device-built treecode's lists and work plan (cuda_device_lists.cpp): the interaction lists
// walked on the device, the local expansions' lists where the far field takes them
// (far/local_field_cuda.hpp), and the plan of the sums from what M2P is left.

#include "backend/cuda_workspace.hpp"
#include "vortex/field.hpp"

namespace vortex::detail {

// Numbers of near and far list entries.
struct ListSizes {
  int near = 0, far = 0;
};

// Counts, offsets, then (once their sizes are known) the entries; with local expansions, their
// lists too (the host reads both lists' sizes at once, then the choice's).
ListSizes build_lists(CudaWorkspace& ws, const ResolvedOptions& options, EvaluationStats& stats);

// The work plan on the device, from the device's lists (the M2P lists with local expansions).
g::DevicePlanView plan_on_device(CudaWorkspace& ws, const ResolvedOptions& options, bool gradient);

}  // namespace vortex::detail
