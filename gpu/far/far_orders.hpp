#pragma once
// Far-field launchers of one compile-time order, instantiated in far_orders_*.cu.

#include <cuda_runtime_api.h>

#include "vortex/gpu/launch.hpp"

namespace vortex::gpu::detail {

template <int P>
void launch_far_order(const FarSum& sum, cudaStream_t stream);
template <int P>
int far_order_blocks(Arithmetic arithmetic, bool gradient, int block_threads);

}  // namespace vortex::gpu::detail
