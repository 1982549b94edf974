// Direct O(N^2) sum on CPU threads, double precision.

#include "../evaluation.hpp"
#include "pair_sum.hpp"

namespace vortex::detail {

namespace {
constexpr double kInvFourPi = 0.079577471545947667884;
}

void direct_sum_cpu(SourcesView sources, PointsView targets, Core core, bool gradient,
                    VelocityField& out) {
  const std::size_t ns = sources.size(), nt = targets.size();
  out.resize(nt, gradient);
  const SourceStorage<double> storage(sources, core);
  const SourceArrays<double> s = storage.arrays();
  dispatch_core(core, [&](auto c) {
    constexpr Core C = decltype(c)::value;
#pragma omp parallel for schedule(dynamic, 16)
    for (std::size_t i = 0; i < nt; ++i) {
      if (gradient) {
        VelocityGradientAccumulator<double> acc;
        sum_range_velocity_gradient<C>(s, 0, ns, targets.x[i], targets.y[i], targets.z[i], acc);
        for (int a = 0; a < 3; ++a) out.u[a][i] = kInvFourPi * acc.u[a];
        for (int k = 0; k < 9; ++k) out.du[k][i] = kInvFourPi * acc.du[k];
      } else {
        VelocityAccumulator<double> acc;
        sum_range_velocity<C>(s, 0, ns, targets.x[i], targets.y[i], targets.z[i], acc);
        for (int a = 0; a < 3; ++a) out.u[a][i] = kInvFourPi * acc.u[a];
      }
    }
  });
  out.stats.pair_interactions = static_cast<std::uint64_t>(ns) * nt;
}

}  // namespace vortex::detail
