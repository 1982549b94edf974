// Multipole expansions of vortex particles against the direct singular Biot-Savart sum, with
// tolerances from the truncation error: a single source's error equals the tail, clusters stay
// within the bound for the velocity and the gradient, the gradient is traceless and differentiates
// the velocity, float agrees with double, and orders outside the range are refused.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

#include "support/multipole_cases.hpp"

using namespace multipole_cases;

TEST(MultipoleExpansion, SingleSourceErrorEqualsTheTruncationTail) {
  const double pc[3] = {0.5, -0.25, 1.0};
  const double dirs[4][3] = {{0, 0, 1}, {0, 0, -1}, {0.48, -0.6, 0.64}, {1, 0, 0}};
  const double G[3] = {0.3, -0.7, 0.4};
  for (const auto& e : dirs) {
    const double a = 0.3, R = 0.6;  // a / R = 1/2
    const double src[3] = {pc[0] + a * e[0], pc[1] + a * e[1], pc[2] + a * e[2]};
    const double tgt[3] = {pc[0] + R * e[0], pc[1] + R * e[1], pc[2] + R * e[2]};
    const double cc[3] = {pc[0] + 0.1, pc[1] - 0.05, pc[2] + 0.2};  // child center
    Particles s;
    s.add(src[0], src[1], src[2], G[0], G[1], G[2]);
    const VelocityGradientAccumulator<double> ref = direct(s, tgt[0], tgt[1], tgt[2]);
    for (int p = 1; p <= mp::kMaxOrder; ++p) {
      std::vector<double> parent(mp::multipole_size(p), 0.0);
      const std::vector<double> child = p2m_all(p, s, cc);
      mp::m2m(p, cc[0] - pc[0], cc[1] - pc[1], cc[2] - pc[2], child.data(), parent.data());
      const std::vector<double> V = velocity_expansion(p, parent);
      VelocityGradientAccumulator<double> got;
      mp::m2p_velocity_gradient(p, V.data(), tgt[0] - pc[0], tgt[1] - pc[1], tgt[2] - pc[2], got);
      VelocityAccumulator<double> got_u;
      mp::m2p_velocity(p, V.data(), tgt[0] - pc[0], tgt[1] - pc[1], tgt[2] - pc[2], got_u);

      double S1 = 0, S2 = 0;
      for (int n = p + 1; n < p + 200; ++n) {
        S1 += (n + 1) * std::pow(a, n) / std::pow(R, n + 2);
        S2 += (n + 1.0) * (n + 2) * std::pow(a, n) / std::pow(R, n + 3);
      }
      const double exG[3] = {e[1] * G[2] - e[2] * G[1], e[2] * G[0] - e[0] * G[2],
                             e[0] * G[1] - e[1] * G[0]};
      const double tol_u = 64 * (p + 2) * kEps * norm3(ref.u);
      const double tol_du = 64 * (p + 2) * kEps * norm9(ref.du);
      for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(ref.u[i] - got.u[i], -S1 * exG[i], tol_u) << "p=" << p << " i=" << i;
        EXPECT_NEAR(got_u.u[i], got.u[i], tol_u) << "p=" << p;
      }
      const int eps3[3][3][3] = {{{0, 0, 0}, {0, 0, 1}, {0, -1, 0}},
                                 {{0, 0, -1}, {0, 0, 0}, {1, 0, 0}},
                                 {{0, 1, 0}, {-1, 0, 0}, {0, 0, 0}}};
      for (int ai = 0; ai < 3; ++ai)
        for (int b = 0; b < 3; ++b) {
          double pred = 0;
          for (int c = 0; c < 3; ++c)
            for (int d = 0; d < 3; ++d) {
              const double H = S2 * (1.5 * e[b] * e[c] - 0.5 * (b == c));
              pred += eps3[ai][c][d] * H * G[d];
            }
          EXPECT_NEAR(ref.du[3 * ai + b] - got.du[3 * ai + b], pred, tol_du)
              << "p=" << p << " du" << ai << "/dx" << b;
        }
    }
  }
}

// Random sources in a box, targets at several distances in random directions and on the z axis
// through the box center (above and below): M2P within the truncation bound of the direct sum.
TEST(MultipoleExpansion, RandomClusterWithinTruncationBound) {
  const double c[3] = {-0.2, 0.4, 0.1};
  const Particles s = random_cube(3, 200, c, 0.5);
  const auto [a, G] = radius_and_strength(s, c);
  std::mt19937 gen(4);
  std::normal_distribution<double> nd;
  std::vector<std::array<double, 3>> dirs = {{0, 0, 1}, {0, 0, -1}};
  for (int k = 0; k < 6; ++k) {
    std::array<double, 3> v = {nd(gen), nd(gen), nd(gen)};
    const double n = norm3(v.data());
    dirs.push_back({v[0] / n, v[1] / n, v[2] / n});
  }
  for (int p : {2, 4, 8, 12}) {
    const std::vector<double> V = velocity_expansion(p, p2m_all(p, s, c));
    for (double ratio : {1.5, 2.0, 3.0, 5.0}) {
      const double R = ratio * a;
      for (const auto& e : dirs) {
        const double d[3] = {R * e[0], R * e[1], R * e[2]};
        const VelocityGradientAccumulator<double> ref =
            direct(s, c[0] + d[0], c[1] + d[1], c[2] + d[2]);
        VelocityGradientAccumulator<double> got;
        mp::m2p_velocity_gradient(p, V.data(), d[0], d[1], d[2], got);
        double du[3], ddu[9];
        for (int i = 0; i < 3; ++i) du[i] = ref.u[i] - got.u[i];
        for (int i = 0; i < 9; ++i) ddu[i] = ref.du[i] - got.du[i];
        const double round_u = 64 * (p + 2) * kEps * G / ((R - a) * (R - a));
        const double round_du = 64 * (p + 2) * kEps * G / std::pow(R - a, 3);
        EXPECT_LE(norm3(du), G * tail_s1(p, a, R) + round_u) << "p=" << p << " R/a=" << ratio;
        EXPECT_LE(norm9(ddu), 3 * G * tail_s2(p, a, R) + round_du) << "p=" << p << " R/a=" << ratio;
      }
    }
  }
}

// The gradient expansion (derivatives taken once per box) evaluated at one target and at SIMD
// lanes of targets: within the same truncation bound of the direct sum as M2P, on and off the z
// axis; du_z/dz, not stored, comes from the trace.
TEST(MultipoleExpansion, GradientExpansionWithinTruncationBound) {
  const double c[3] = {0.3, -0.1, 0.2};
  const Particles s = random_cube(7, 150, c, 0.5);
  const auto [a, G] = radius_and_strength(s, c);
  const std::array<double, 3> dirs[] = {{0, 0, 1}, {0, 0, -1}, {0.6, -0.8, 0}, {0.48, 0.6, -0.64}};
  auto check = [&](auto P) {
    constexpr int p = decltype(P)::value;
    const std::vector<double> V = velocity_expansion(p, p2m_all(p, s, c));
    std::vector<double> E(mp::gradient_expansion_size(p));
    mp::gradient_expansion(p, V.data(), E.data());
    for (double ratio : {1.5, 3.0}) {
      const double R = ratio * a;
      // All directions as lanes of one leaf (padded with the last), and one at a time.
      std::vector<double> x, y, z;
      for (const auto& e : dirs)
        x.push_back(R * e[0]), y.push_back(R * e[1]), z.push_back(R * e[2]);
      const int n = static_cast<int>(x.size());
      const int W = mp::target_lane_count<double>();
      const int padded = (n + W - 1) / W * W;
      x.resize(padded, x.back()), y.resize(padded, y.back()), z.resize(padded, z.back());
      std::vector<double> sums(12 * padded, 0.0);
      const double zero[4] = {0, 0, 0, 1};  // center; scale 1: expansions as they are
      mp::m2p_velocity_gradient_lanes<p>(
          E.data(), zero, mp::LeafLanes<double>{x.data(), y.data(), z.data(), padded, sums.data()});
      for (int i = 0; i < n; ++i) {
        const VelocityGradientAccumulator<double> ref =
            direct(s, c[0] + x[i], c[1] + y[i], c[2] + z[i]);
        double one[12];
        mp::gradient_expansion_at<p>(E.data(), x[i], y[i], z[i], one);
        for (const double* got :
             {static_cast<const double*>(one), static_cast<const double*>(nullptr)}) {
          double du[3], ddu[9];
          for (int k = 0; k < 3; ++k) du[k] = ref.u[k] - (got ? got[k] : sums[k * padded + i]);
          for (int k = 0; k < 9; ++k)
            ddu[k] = ref.du[k] - (got ? got[3 + k] : sums[(3 + k) * padded + i]);
          const double round_u = 64 * (p + 2) * kEps * G / ((R - a) * (R - a));
          const double round_du = 64 * (p + 2) * kEps * G / std::pow(R - a, 3);
          EXPECT_LE(norm3(du), G * tail_s1(p, a, R) + round_u) << "p=" << p << " target " << i;
          EXPECT_LE(norm9(ddu), 3 * G * tail_s2(p, a, R) + round_du)
              << "p=" << p << " target " << i;
        }
      }
    }
  };
  check(std::integral_constant<int, 1>{});
  check(std::integral_constant<int, 5>{});
  check(std::integral_constant<int, 9>{});
  check(std::integral_constant<int, 14>{});
}

// The M2P gradient is traceless (div u = 0 holds term by term) and is the derivative of the M2P
// velocity: fourth-order central differences with h = 1e-3 D (D = R - a, the distance to the
// nearest source) have truncation about 6! (h/D)^4 G/D^3 and rounding about eps G/(h D^2).
TEST(MultipoleExpansion, GradientIsTracelessAndDifferentiatesTheVelocity) {
  const double c[3] = {0, 0, 0};
  const Particles s = random_cube(5, 100, c, 0.5);
  double G = 0;
  for (int j = 0; j < s.size(); ++j) G += std::abs(s.gx[j]) + std::abs(s.gy[j]) + std::abs(s.gz[j]);
  const double a = std::sqrt(3.0) * 0.5;
  for (int p : {1, 5, 10, 16}) {
    const std::vector<double> V = velocity_expansion(p, p2m_all(p, s, c));
    for (const auto& t : {std::array<double, 3>{1.1, -1.3, 0.7}, std::array<double, 3>{0, 0, 2.2},
                          std::array<double, 3>{0, 0, -1.9}}) {
      VelocityGradientAccumulator<double> g;
      mp::m2p_velocity_gradient(p, V.data(), t[0], t[1], t[2], g);
      EXPECT_NEAR(g.du[0] + g.du[4] + g.du[8], 0.0, 32 * (p + 2) * kEps * norm9(g.du));
      const double D = norm3(t.data()) - a;
      const double h = 1e-3 * D;
      const double tol =
          720 * std::pow(h / D, 4) * G / std::pow(D, 3) + 64 * kEps * G / (h * D * D);
      for (int b = 0; b < 3; ++b) {
        double fd[3] = {0, 0, 0};
        const double w[4] = {1, -8, 8, -1};
        const int off[4] = {-2, -1, 1, 2};
        for (int k = 0; k < 4; ++k) {
          double x[3] = {t[0], t[1], t[2]};
          x[b] += off[k] * h;
          VelocityAccumulator<double> v;
          mp::m2p_velocity(p, V.data(), x[0], x[1], x[2], v);
          for (int i = 0; i < 3; ++i) fd[i] += w[k] * v.u[i] / (12 * h);
        }
        for (int i = 0; i < 3; ++i)
          EXPECT_NEAR(g.du[3 * i + b], fd[i], tol) << "p=" << p << " du" << i << "/dx" << b;
      }
    }
  }
}

// Float evaluation of a double-built expansion: a few (p+2) float roundings of the sum of the
// absolute terms, which for these well-separated targets is within a small factor of |u|.
TEST(MultipoleExpansion, FloatAgreesWithDouble) {
  const double c[3] = {0.25, 0.5, -0.5};
  const Particles s = random_cube(6, 100, c, 0.5);
  const double epsf = std::numeric_limits<float>::epsilon();
  for (int p : {1, 4, 7, 8, 10}) {
    const std::vector<double> V = velocity_expansion(p, p2m_all(p, s, c));
    const std::vector<float> Vf(V.begin(), V.end());
    for (const auto& t : {std::array<double, 3>{2.0, -1.0, 0.5}, std::array<double, 3>{0, 0, 2.5},
                          std::array<double, 3>{0, 0, -3.0}}) {
      VelocityGradientAccumulator<double> gd;
      VelocityGradientAccumulator<float> gf;
      VelocityAccumulator<float> vf;
      mp::m2p_velocity_gradient(p, V.data(), t[0], t[1], t[2], gd);
      mp::m2p_velocity_gradient(p, Vf.data(), float(t[0]), float(t[1]), float(t[2]), gf);
      mp::m2p_velocity(p, Vf.data(), float(t[0]), float(t[1]), float(t[2]), vf);
      const double tol_u = 16 * (p + 2) * epsf * norm3(gd.u);
      const double tol_du = 16 * (p + 2) * epsf * norm9(gd.du);
      for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(gf.u[i], gd.u[i], tol_u) << "p=" << p;
        EXPECT_NEAR(vf.u[i], gd.u[i], tol_u) << "p=" << p;
      }
      for (int i = 0; i < 9; ++i) EXPECT_NEAR(gf.du[i], gd.du[i], tol_du) << "p=" << p;
    }
  }
}

TEST(MultipoleExpansion, OrdersOutsideTheRangeAreRejected) {
  std::vector<double> V(mp::velocity_expansion_size(mp::kMaxOrder), 0.0);
  std::vector<double> M(mp::multipole_size(mp::kMaxOrder + 1), 0.0);
  VelocityGradientAccumulator<double> acc;
  EXPECT_THROW(mp::m2p_velocity(0, V.data(), 1.0, 0.0, 0.0, acc), std::invalid_argument);
  EXPECT_THROW(mp::m2p_velocity_gradient(mp::kMaxOrder + 1, V.data(), 1.0, 0.0, 0.0, acc),
               std::invalid_argument);
  EXPECT_THROW(mp::p2m(-1, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, M.data()), std::invalid_argument);
  EXPECT_THROW(mp::m2m(mp::kMaxOrder + 1, 0.0, 0.0, 0.0, M.data(), M.data()),
               std::invalid_argument);
  EXPECT_NO_THROW(mp::m2p_velocity(mp::kMaxOrder, V.data(), 1.0, 0.0, 0.0, acc));
}
