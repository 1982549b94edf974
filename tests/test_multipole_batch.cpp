// M2P of one box at many targets in SIMD lanes equals the per-target M2P, for every count (full
// and partial lane groups), in double and float.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "vortex/kernels/pair_kernel.hpp"
#include "vortex/multipole/multipole.hpp"

namespace mp = vortex::multipole;

namespace {

template <int P, class T>
void check_batch() {
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> M(mp::multipole_size(P), 0.0);
  for (int j = 0; j < 50; ++j)
    mp::p2m(P, 0.4 * u(gen), 0.4 * u(gen), 0.4 * u(gen), u(gen), u(gen), u(gen), M.data());
  std::vector<double> Vd(mp::velocity_expansion_size(P));
  mp::m2v(P, M.data(), Vd.data());
  const std::vector<T> V(Vd.begin(), Vd.end());
  const T c[3] = {T(0.1), T(-0.2), T(0.3)};
  const int n = 19;
  std::vector<T> x(n), y(n), z(n);
  for (int i = 0; i < n; ++i) {
    x[i] = c[0] + T(2 * u(gen)), y[i] = c[1] + T(2 * u(gen)), z[i] = c[2] + T(2 + u(gen));
  }
  x[3] = c[0], y[3] = c[1];                        // on the z axis of the center, above
  x[4] = c[0], y[4] = c[1], z[4] = c[2] - T(2.5);  // and below
  const T eps = std::numeric_limits<T>::epsilon();
  for (int count = 1; count <= n; ++count) {
    std::vector<vortex::VelocityGradientAccumulator<T>> g(count), g1(count);
    std::vector<vortex::VelocityAccumulator<T>> v(count), v1(count);
    mp::m2p_velocity_gradient_batch<P>(V.data(), c, count, x.data(), y.data(), z.data(), g.data());
    mp::m2p_velocity_batch<P>(V.data(), c, count, x.data(), y.data(), z.data(), v.data());
    for (int i = 0; i < count; ++i) {
      mp::m2p_velocity_gradient<P>(V.data(), x[i] - c[0], y[i] - c[1], z[i] - c[2], g1[i]);
      mp::m2p_velocity<P>(V.data(), x[i] - c[0], y[i] - c[1], z[i] - c[2], v1[i]);
      // Same terms, summed in a different order: a few (P+2) roundings of the result's scale.
      T su = 0, sd = 0;
      for (int a = 0; a < 3; ++a) su += std::abs(g1[i].u[a]);
      for (int k = 0; k < 9; ++k) sd += std::abs(g1[i].du[k]);
      for (int a = 0; a < 3; ++a) {
        EXPECT_NEAR(g[i].u[a], g1[i].u[a], 16 * (P + 2) * eps * su) << "count " << count;
        EXPECT_NEAR(v[i].u[a], v1[i].u[a], 16 * (P + 2) * eps * su) << "count " << count;
      }
      for (int k = 0; k < 9; ++k)
        EXPECT_NEAR(g[i].du[k], g1[i].du[k], 16 * (P + 2) * eps * sd) << "count " << count;
    }
  }
}

}  // namespace

TEST(MultipoleBatch, MatchesPerTargetDouble) {
  check_batch<1, double>();
  check_batch<4, double>();
  check_batch<8, double>();
  check_batch<12, double>();
}

TEST(MultipoleBatch, MatchesPerTargetFloat) {
  check_batch<3, float>();
  check_batch<7, float>();
  check_batch<8, float>();
}
