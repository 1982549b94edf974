// Run-time order dispatch of the far-field kernels.

#include <stdexcept>
#include <string>

#include "far_orders.hpp"
#include "vortex/gpu/kernels.hpp"

namespace vortex::gpu {
namespace {

constexpr int kFarMaxOrder = 16;

template <int P = 1, class Fn>
decltype(auto) dispatch_order(int p, Fn&& fn) {
  if constexpr (P < kFarMaxOrder) {
    if (p != P) return dispatch_order<P + 1>(p, fn);
  } else {
    if (p != P)
      throw std::invalid_argument("far field: multipole order " + std::to_string(p) +
                                  " outside [1, " + std::to_string(kFarMaxOrder) + "]");
  }
  return fn(std::integral_constant<int, P>{});
}

}  // namespace

void launch_far_sum(const FarSum& sum, cudaStream_t stream) {
  if (sum.num_items == 0) return;
  dispatch_order(sum.order, [&](auto p) {
    detail::launch_far_order<decltype(p)::value>(sum, stream);
    return 0;
  });
}

int far_sum_blocks_per_multiprocessor(int order, Arithmetic arithmetic, bool gradient,
                                      int block_threads) {
  return dispatch_order(order, [&](auto p) {
    return detail::far_order_blocks<decltype(p)::value>(arithmetic, gradient, block_threads);
  });
}

int max_far_order() {
  return kFarMaxOrder;
}

}  // namespace vortex::gpu
