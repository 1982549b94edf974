#include "partition/sums_work.hpp"

#include "backend/cpu_stages.hpp"

namespace vortex::mpi::detail {

namespace vd = vortex::detail;

// Seconds of one regularized pair with its gradient: the CPU's direct sum, 7.2e7 pairs/s on one
// core of the AVX-512 Xeon in double (docs/PERFORMANCE.md); the GPU's, 5.0e11 pairs/s in float
// tiles on an H100, in double 2.3 times that (the ratio of the double and float M2P on the H200,
// far_field_costs.cpp).
constexpr double kCpuPair = 1.0 / 7.2e7;
constexpr double kCudaPair = 1.0 / 5.0e11;
constexpr double kCudaDoubleRatio = 2.3;

double sums_work(const EvaluationStats& stats, const vd::ResolvedOptions& options) {
  const bool cuda = options.backend == Backend::Cuda;
  const bool doubles = options.arithmetic == vd::Arithmetic::Double;
  const int p = options.tree.order;
  const FarFieldCosts c =
      cuda ? vd::far_field_costs_cuda(p, options.arithmetic)
           : vd::far_field_costs(p, doubles ? vd::FarArithmetic::Double : vd::FarArithmetic::Float);
  const double pair = cuda ? kCudaPair * (doubles ? kCudaDoubleRatio : 1.0) : kCpuPair;
  return pair * static_cast<double>(stats.pair_interactions) +
         c.m2p_target * static_cast<double>(stats.multipole_interactions) +
         c.m2l * static_cast<double>(stats.m2l_translations) +
         c.l2p_target * static_cast<double>(stats.l2p_targets);
}

}  // namespace vortex::mpi::detail
