// Run-time order dispatch of the far-field kernels.

#include "far_orders.hpp"
#include "vortex/gpu/launch.hpp"
#include "vortex/math/order_dispatch.hpp"

namespace vortex::gpu {
void launch_far_sum(const FarSum& sum, cudaStream_t stream) {
  if (sum.num_items == 0) return;
  dispatch_order(sum.order, "far field", [&](auto p) {
    detail::launch_far_order<decltype(p)::value>(sum, stream);
    return 0;
  });
}

int far_sum_blocks_per_multiprocessor(int order, Arithmetic arithmetic, bool gradient,
                                      int block_threads) {
  return dispatch_order(order, "far field", [&](auto p) {
    return detail::far_order_blocks<decltype(p)::value>(arithmetic, gradient, block_threads);
  });
}

int max_far_order() {
  return kMaxMultipoleOrder;
}

}  // namespace vortex::gpu
