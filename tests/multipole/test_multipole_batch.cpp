// M2P of one box at many targets in SIMD lanes equals the per-target M2P, for every count (full
// and partial lane groups), in double and float; so does the far field's form (a leaf's padded
// columns, gradient expansions, float terms added into double sums).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "vortex/math/pair_kernel.hpp"
#include "vortex/multipole/multipole.hpp"

namespace mp = vortex::multipole;

namespace {

// Velocity expansion of order p of 50 random particles within 0.4 of the center (per axis).
std::vector<double> cluster_expansion(int p, std::mt19937& gen) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> M(mp::multipole_size(p), 0.0);
  for (int j = 0; j < 50; ++j)
    mp::p2m(p, 0.4 * u(gen), 0.4 * u(gen), 0.4 * u(gen), u(gen), u(gen), u(gen), M.data());
  std::vector<double> V(mp::velocity_expansion_size(p));
  mp::m2v(p, M.data(), V.data());
  return V;
}

template <int P, class T>
void check_batch() {
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(-1, 1);
  const std::vector<double> Vd = cluster_expansion(P, gen);
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

// The far field's lanes: velocity from the velocity expansion, velocity and gradient from the
// gradient expansion, at `count` targets padded to whole vectors, against the per-target M2P in
// double. T is the lanes' arithmetic; the sums are double either way.
template <int P, class T>
void check_lanes() {
  std::mt19937 gen(12);
  std::uniform_real_distribution<double> u(-1, 1);
  const std::vector<double> Vd = cluster_expansion(P, gen);
  std::vector<T> G(mp::gradient_expansion_size(P));
  mp::gradient_expansion(P, Vd.data(), G.data());
  const std::vector<T> V(Vd.begin(), Vd.end());
  const double cd[3] = {0.1, -0.2, 0.3};
  const T c[4] = {T(cd[0]), T(cd[1]), T(cd[2]), T(1)};  // scale 1: expansions as they are
  const int W = mp::target_lane_count<T>();
  const int n = 2 * W + 3;
  std::vector<T> x(n), y(n), z(n);
  for (int i = 0; i < n; ++i) {
    x[i] = c[0] + T(2 * u(gen)), y[i] = c[1] + T(2 * u(gen)), z[i] = c[2] + T(2 + u(gen));
  }
  x[1] = c[0], y[1] = c[1], z[1] = c[2] - T(2.5);  // on the z axis of the center
  const double eps = std::numeric_limits<T>::epsilon();
  for (int count = 1; count <= n; ++count) {
    const int padded = (count + W - 1) / W * W;
    std::vector<T> px(padded), py(padded), pz(padded);
    for (int i = 0; i < padded; ++i) {
      const int j = std::min(i, count - 1);
      px[i] = x[j], py[i] = y[j], pz[i] = z[j];
    }
    std::vector<double> g(12 * padded, 0.0), v(3 * padded, 0.0);
    mp::m2p_velocity_gradient_lanes<P>(
        G.data(), c, mp::LeafLanes<T>{px.data(), py.data(), pz.data(), padded, g.data()});
    mp::m2p_velocity_lanes<P>(V.data(), c,
                              mp::LeafLanes<T>{px.data(), py.data(), pz.data(), padded, v.data()});
    for (int i = 0; i < count; ++i) {
      vortex::VelocityGradientAccumulator<double> r;
      mp::m2p_velocity_gradient<P>(Vd.data(), double(x[i]) - cd[0], double(y[i]) - cd[1],
                                   double(z[i]) - cd[2], r);
      double su = 0, sd = 0;
      for (int a = 0; a < 3; ++a) su += std::abs(r.u[a]);
      for (int k = 0; k < 9; ++k) sd += std::abs(r.du[k]);
      // Rounding of a few (P+3) terms of the result's scale in T (the offsets included).
      for (int a = 0; a < 3; ++a) {
        EXPECT_NEAR(g[a * padded + i], r.u[a], 64 * (P + 3) * eps * su) << "count " << count;
        EXPECT_NEAR(v[a * padded + i], r.u[a], 64 * (P + 3) * eps * su) << "count " << count;
      }
      for (int k = 0; k < 9; ++k)
        EXPECT_NEAR(g[(3 + k) * padded + i], r.du[k], 64 * (P + 3) * eps * sd) << "count " << count;
    }
  }
}

}  // namespace

// Float lanes add each box's terms into double sums: a box and its negative (exactly opposite
// float terms) cancel exactly however large, and a small box added among many such pairs keeps
// all its float digits; a float running sum would lose about 1e6 float roundings of it.
TEST(MultipoleBatch, FloatLanesSumBoxesInDouble) {
  constexpr int P = 6;
  std::vector<double> M(mp::multipole_size(P), 0.0);
  mp::p2m(P, 0.1, -0.2, 0.05, 0.3, 0.7, -0.4, M.data());
  std::vector<double> Vd(mp::velocity_expansion_size(P));
  mp::m2v(P, M.data(), Vd.data());
  std::vector<float> small(mp::gradient_expansion_size(P)), big(small.size()), minus(small.size());
  mp::gradient_expansion(P, Vd.data(), small.data());
  for (std::size_t k = 0; k < small.size(); ++k) big[k] = 1e6f * small[k], minus[k] = -big[k];
  const int W = mp::target_lane_count<float>();
  std::vector<float> x(W, 1.5f), y(W, -2.0f), z(W, 2.5f);
  for (int i = 0; i < W; ++i) x[i] += 0.01f * i;
  const float c[4] = {0, 0, 0, 1};
  std::vector<double> alone(12 * W, 0.0), mixed(12 * W, 0.0);
  const mp::LeafLanes<float> a{x.data(), y.data(), z.data(), W, alone.data()};
  const mp::LeafLanes<float> b{x.data(), y.data(), z.data(), W, mixed.data()};
  mp::m2p_velocity_gradient_lanes<P>(small.data(), c, a);
  for (int k = 0; k < 50; ++k) {
    mp::m2p_velocity_gradient_lanes<P>(big.data(), c, b);
    if (k == 20) mp::m2p_velocity_gradient_lanes<P>(small.data(), c, b);
    mp::m2p_velocity_gradient_lanes<P>(minus.data(), c, b);
  }
  for (int k = 0; k < 12 * W; ++k) EXPECT_EQ(mixed[k], alone[k]) << "sum " << k / W;
}

TEST(MultipoleBatch, MatchesPerTargetDouble) {
  check_batch<1, double>();
  check_batch<4, double>();
  check_batch<8, double>();
  check_batch<12, double>();
  check_lanes<1, double>();
  check_lanes<9, double>();
  check_lanes<16, double>();
}

TEST(MultipoleBatch, MatchesPerTargetFloat) {
  check_batch<3, float>();
  check_batch<7, float>();
  check_batch<8, float>();
  check_lanes<3, float>();
  check_lanes<9, float>();
  check_lanes<12, float>();
}
