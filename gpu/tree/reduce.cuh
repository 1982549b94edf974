#pragma once
// Block-wide reductions and the order-keeping integer images of doubles that let blocks merge
// minima and maxima with atomics (the result does not depend on the order of the merges).

#include <cub/block/block_reduce.cuh>

namespace vortex::gpu::detail {

constexpr int kReduceThreads = 256;

struct MinOp {
  __device__ double operator()(double a, double b) const { return a < b ? a : b; }
};
struct MaxOp {
  __device__ double operator()(double a, double b) const { return a > b ? a : b; }
};
struct SumOp {
  __device__ double operator()(double a, double b) const { return a + b; }
};

// Reduces `v` over the block (Threads threads); the result is valid in thread 0.
template <int Threads = kReduceThreads, class Op>
__device__ double block_reduce(double v, Op op) {
  using Reduce = cub::BlockReduce<double, Threads>;
  __shared__ typename Reduce::TempStorage storage;
  const double r = Reduce(storage).Reduce(v, op);
  __syncthreads();  // the storage is reused by the next call
  return r;
}

// An unsigned integer that orders like the double it is made from.
__device__ inline unsigned long long order_bits(double v) {
  const unsigned long long b = static_cast<unsigned long long>(__double_as_longlong(v));
  constexpr unsigned long long sign = 1ull << 63;
  return (b & sign) ? ~b : (b | sign);
}
__device__ inline double from_order_bits(unsigned long long b) {
  constexpr unsigned long long sign = 1ull << 63;
  return __longlong_as_double(static_cast<long long>((b & sign) ? (b & ~sign) : ~b));
}

}  // namespace vortex::gpu::detail
