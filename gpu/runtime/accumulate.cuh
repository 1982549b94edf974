#pragma once
// Device-side accumulation helpers shared by the pair and multipole kernels.

#include <type_traits>

#include "vortex/gpu/layout.hpp"
#include "vortex/math/pair_kernel.hpp"

namespace vortex::gpu::detail {

template <class T, bool Gradient>
using Accumulator =
    std::conditional_t<Gradient, VelocityGradientAccumulator<T>, VelocityAccumulator<T>>;

// T: arithmetic of one pair or one expansion; S: the running sum across tiles.
template <Arithmetic A>
struct Types;
template <>
struct Types<Arithmetic::Double> {
  using T = double;
  using S = double;
};
template <>
struct Types<Arithmetic::FloatTiles> {
  using T = float;
  using S = double;
};
template <>
struct Types<Arithmetic::Float> {
  using T = float;
  using S = float;
};

// Adds a tile's sum, its F Gamma part folded into the gradient, to the running sum.
template <bool Gradient, class Total, class Tile>
__device__ __forceinline__ void add_into(Total& total, Tile& tile) {
#pragma unroll
  for (int i = 0; i < 3; ++i) total.u[i] += tile.u[i];
  if constexpr (Gradient) {
    fold_rotation(tile);
#pragma unroll
    for (int i = 0; i < 9; ++i) total.du[i] += tile.du[i];
  }
}

// partial[(slot * components + c) * stride + t]: coalesced over the threads of a block.
template <bool Gradient, class Total>
__device__ __forceinline__ void store_partial(const Total& total, double* partial, int slot,
                                              int stride, int t) {
  constexpr int nc = components(Gradient);
  double* p = partial + static_cast<long long>(slot) * nc * stride + t;
#pragma unroll
  for (int i = 0; i < 3; ++i) p[i * stride] = total.u[i];
  if constexpr (Gradient) {
#pragma unroll
    for (int i = 0; i < 9; ++i) p[(3 + i) * stride] = total.du[i];
  }
}

// Calls fn(std::integral_constant<Arithmetic, A>{}) for the run-time arithmetic.
template <class Fn>
decltype(auto) dispatch_arithmetic(Arithmetic a, Fn&& fn) {
  switch (a) {
    case Arithmetic::Double:
      return fn(std::integral_constant<Arithmetic, Arithmetic::Double>{});
    case Arithmetic::Float:
      return fn(std::integral_constant<Arithmetic, Arithmetic::Float>{});
    case Arithmetic::FloatTiles:
    default:
      return fn(std::integral_constant<Arithmetic, Arithmetic::FloatTiles>{});
  }
}

template <class Fn>
decltype(auto) dispatch_gradient(bool gradient, Fn&& fn) {
  if (gradient) return fn(std::true_type{});
  return fn(std::false_type{});
}

}  // namespace vortex::gpu::detail
