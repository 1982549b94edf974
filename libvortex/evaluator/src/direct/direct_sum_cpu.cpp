// Direct O(N^2) sum on CPU threads.

#include "backend/cpu_stages.hpp"
#include "vortex/math/constants.hpp"

namespace vortex::detail {

template <class T>
void direct_sum_cpu(const SourceArrays<T>& s, std::size_t ns, PointsView targets, Origin o,
                    Core core, bool gradient, ComponentArrays out) {
  const std::ptrdiff_t nt = static_cast<std::ptrdiff_t>(targets.size());
  dispatch_core(core, [&](auto c) {
    constexpr Core C = decltype(c)::value;
#pragma omp parallel for schedule(dynamic, 16)
    for (std::ptrdiff_t i = 0; i < nt; ++i) {
      const T tx = static_cast<T>(targets.x[i] - o.x);
      const T ty = static_cast<T>(targets.y[i] - o.y);
      const T tz = static_cast<T>(targets.z[i] - o.z);
      if (gradient) {
        VelocityGradientAccumulator<double> acc;
        sum_range_velocity_gradient<C>(s, 0, ns, tx, ty, tz, acc);
        for (int a = 0; a < 3; ++a) out[a][i] = kInvFourPi * acc.u[a];
        for (int k = 0; k < 9; ++k) out[3 + k][i] = kInvFourPi * acc.du[k];
      } else {
        VelocityAccumulator<double> acc;
        sum_range_velocity<C>(s, 0, ns, tx, ty, tz, acc);
        for (int a = 0; a < 3; ++a) out[a][i] = kInvFourPi * acc.u[a];
      }
    }
  });
}

template void direct_sum_cpu(const SourceArrays<double>&, std::size_t, PointsView, Origin, Core,
                             bool, ComponentArrays);
template void direct_sum_cpu(const SourceArrays<float>&, std::size_t, PointsView, Origin, Core,
                             bool, ComponentArrays);

}  // namespace vortex::detail
