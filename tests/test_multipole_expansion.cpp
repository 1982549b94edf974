// Multipole expansions of vortex particles: P2M, M2M, the velocity expansion and M2P, against the
// direct singular Biot-Savart sum, with tolerances from the truncation error of the expansion.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "vortex/kernels/pair_kernel.hpp"
#include "vortex/multipole/multipole.hpp"

namespace mp = vortex::multipole;
using vortex::VelocityAccumulator;
using vortex::VelocityGradientAccumulator;

namespace {

const double kEps = std::numeric_limits<double>::epsilon();

struct Particles {
  std::vector<double> x, y, z, gx, gy, gz;
  int size() const { return static_cast<int>(x.size()); }
  void add(double px, double py, double pz, double qx, double qy, double qz) {
    x.push_back(px), y.push_back(py), z.push_back(pz);
    gx.push_back(qx), gy.push_back(qy), gz.push_back(qz);
  }
};

// Uniform in the cube [c - h, c + h]^3, strengths uniform in [-1, 1]^3.
Particles random_cube(unsigned seed, int n, const double c[3], double h) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Particles s;
  for (int i = 0; i < n; ++i)
    s.add(c[0] + h * u(gen), c[1] + h * u(gen), c[2] + h * u(gen), u(gen), u(gen), u(gen));
  return s;
}

VelocityGradientAccumulator<double> direct(const Particles& s, double tx, double ty, double tz) {
  VelocityGradientAccumulator<double> acc;
  for (int j = 0; j < s.size(); ++j)
    vortex::add_pair_velocity_gradient<vortex::Core::Singular, double>(
        tx - s.x[j], ty - s.y[j], tz - s.z[j], s.gx[j], s.gy[j], s.gz[j], 1.0, vortex::DropAtZero{},
        acc);
  vortex::fold_rotation(acc);
  return acc;
}

std::vector<double> p2m_all(int p, const Particles& s, const double c[3]) {
  std::vector<double> M(mp::multipole_size(p), 0.0);
  for (int j = 0; j < s.size(); ++j)
    mp::p2m(p, s.x[j] - c[0], s.y[j] - c[1], s.z[j] - c[2], s.gx[j], s.gy[j], s.gz[j], M.data());
  return M;
}

std::vector<double> velocity_expansion(int p, const std::vector<double>& M) {
  std::vector<double> V(mp::velocity_expansion_size(p));
  mp::m2v(p, M.data(), V.data());
  return V;
}

double norm3(const double* v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}
double norm9(const double* v) {
  double s = 0;
  for (int k = 0; k < 9; ++k) s += v[k] * v[k];
  return std::sqrt(s);
}

// Largest distance of a source from c, and the sum of the strengths' norms.
std::pair<double, double> radius_and_strength(const Particles& s, const double c[3]) {
  double a = 0, G = 0;
  for (int j = 0; j < s.size(); ++j) {
    const double d[3] = {s.x[j] - c[0], s.y[j] - c[1], s.z[j] - c[2]};
    const double g[3] = {s.gx[j], s.gy[j], s.gz[j]};
    a = std::max(a, norm3(d));
    G += norm3(g);
  }
  return {a, G};
}

// Truncation bounds for a unit-strength source at distance <= a from the center and a target at
// distance R: the tail of 1/|x - y| is sum_{n>p} (1/n!) (-y.grad)^n (1/|x|), and every mixed
// directional derivative obeys |d_u1..d_uN (1/r)| <= N!/r^(N+1) (Banach: a symmetric multilinear
// form is bounded by its diagonal, here N! P_N/r^(N+1)). Hence per unit |G|
//   |du| <= S1 = sum_{n>p} (n+1) a^n/R^(n+2),  |d grad u|_F <= 3 S2,  S2 = sum_{n>p} (n+1)(n+2)
//   a^n/R^(n+3)
// (3 bounds the Frobenius norm of a 3x3 matrix by its largest entry).
double tail_s1(int p, double a, double R) {
  double s = 0;
  for (int n = p + 1; n < p + 400; ++n) s += (n + 1) * std::pow(a / R, n) / (R * R);
  return s;
}
double tail_s2(int p, double a, double R) {
  double s = 0;
  for (int n = p + 1; n < p + 400; ++n) s += (n + 1.0) * (n + 2) * std::pow(a / R, n) / (R * R * R);
  return s;
}

}  // namespace

TEST(MultipoleExpansion, MonopoleIsTotalStrength) {
  const double c[3] = {0.3, -0.2, 0.1};
  const Particles s = random_cube(1, 300, c, 0.5);
  for (int p : {0, 3, 8}) {
    const std::vector<double> M = p2m_all(p, s, c);
    const int count = mp::coefficient_count(p);
    const std::vector<double>* g[3] = {&s.gx, &s.gy, &s.gz};
    for (int e = 0; e < 3; ++e) {
      double total = 0, abs_total = 0;
      for (double v : *g[e]) total += v, abs_total += std::abs(v);
      EXPECT_NEAR(M[e * count], total, s.size() * kEps * abs_total);
    }
  }
}

// Children in the eight octants of a parent; M2M of the children equals P2M of all particles into
// the parent. Each coefficient of degree n is a sum of terms bounded by |G| (|y| + |d|)^n/n!
// (|R_n^m(y)| <= |y|^n/n!), so rounding is a few (n+1)^2 eps of that.
TEST(MultipoleExpansion, M2MEqualsDirectP2M) {
  const double pc[3] = {0.1, 0.2, -0.3};
  for (int p : {0, 1, 4, 8, 12, 16}) {
    const int count = mp::coefficient_count(p);
    std::vector<double> parent(mp::multipole_size(p), 0.0);
    Particles all;
    std::vector<double> scale(p + 1, 0.0);
    for (int o = 0; o < 8; ++o) {
      const double cc[3] = {pc[0] + ((o & 1) ? 0.25 : -0.25), pc[1] + ((o & 2) ? 0.25 : -0.25),
                            pc[2] + ((o & 4) ? 0.25 : -0.25)};
      const Particles s = random_cube(10 + o, 20, cc, 0.25);
      const std::vector<double> child = p2m_all(p, s, cc);
      mp::m2m(p, cc[0] - pc[0], cc[1] - pc[1], cc[2] - pc[2], child.data(), parent.data());
      const double d = std::sqrt(3 * 0.25 * 0.25);
      for (int j = 0; j < s.size(); ++j) {
        all.add(s.x[j], s.y[j], s.z[j], s.gx[j], s.gy[j], s.gz[j]);
        const double yj =
            std::sqrt((s.x[j] - cc[0]) * (s.x[j] - cc[0]) + (s.y[j] - cc[1]) * (s.y[j] - cc[1]) +
                      (s.z[j] - cc[2]) * (s.z[j] - cc[2]));
        const double g = std::max({std::abs(s.gx[j]), std::abs(s.gy[j]), std::abs(s.gz[j])});
        double t = g;
        for (int n = 0; n <= p; ++n) scale[n] += t, t *= (yj + d) / (n + 1);
      }
    }
    const std::vector<double> direct_m = p2m_all(p, all, pc);
    for (int e = 0; e < 3; ++e)
      for (int n = 0; n <= p; ++n)
        for (int k = n * n; k < (n + 1) * (n + 1); ++k)
          EXPECT_NEAR(parent[e * count + k], direct_m[e * count + k],
                      4 * (n + 1) * (n + 1) * kEps * scale[n])
              << "p=" << p << " e=" << e << " k=" << k;
  }
}

// Each M2M term against the addition theorem summed over every (k, l) with the complex values of
// any order (detail::signed_order), at every order: the same products in the same order.
TEST(MultipoleExpansion, M2MTermsEqualTheAdditionTheorem) {
  std::mt19937 gen(23);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int p = 0; p <= mp::kMaxOrder; ++p) {
    std::vector<double> R(mp::coefficient_count(p)), C(mp::coefficient_count(p));
    for (double& v : R) v = u(gen);
    for (double& v : C) v = u(gen);
    for (int n = 0; n <= p; ++n)
      for (int m = 0; m <= n; ++m) {
        double re = 0, im = 0, size = 0;
        for (int k = 0; k <= n; ++k)
          for (int l = -k; l <= k; ++l) {
            if (std::abs(m - l) > n - k) continue;
            const auto a = mp::detail::signed_order(R.data(), k, l);
            const auto b = mp::detail::signed_order(C.data(), n - k, m - l);
            re += a.re * b.re - a.im * b.im;
            im += a.re * b.im + a.im * b.re;
            size += std::abs(a.re * b.re) + std::abs(a.im * b.im) + std::abs(a.re * b.im) +
                    std::abs(a.im * b.re);
          }
        const auto t = mp::unchecked::m2m_term(n, m, R.data(), C.data());
        EXPECT_NEAR(t.re, re, 1e-15 * size) << "p " << p << " n " << n << " m " << m;
        EXPECT_NEAR(t.im, im, 1e-15 * size) << "p " << p << " n " << n << " m " << m;
      }
  }
}

// The velocity expansion, gathered slot by slot, against the ladder relations' scatter over whole
// expansions (ladder.hpp) and the curl taken on the results: equal to the last bit (each term has
// at most two contributions, added in the same order), at every order.
TEST(MultipoleExpansion, VelocitySlotsEqualTheLadderScatter) {
  std::mt19937 gen(17);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int p = 0; p <= mp::kMaxOrder; ++p) {
    const int count = mp::coefficient_count(p), count1 = mp::coefficient_count(p + 1);
    std::vector<double> M(mp::multipole_size(p));
    for (double& v : M) v = u(gen);
    // d[b][e]: coefficients of d psi_e / dx_b, psi_e = sum_k w_m M_e,k I_k.
    std::vector<double> d[3][3];
    for (int e = 0; e < 3; ++e) {
      std::vector<double> A(count);
      for (int n = 0; n <= p; ++n)
        for (int k = n * n; k < (n + 1) * (n + 1); ++k)
          A[k] = (k == mp::cos_index(n, 0) ? 1.0 : 2.0) * M[e * count + k];
      for (auto& b : d) b[e].assign(count1, 0.0);
      mp::irregular_coefficient_derivatives(p, A.data(), d[0][e].data(), d[1][e].data(),
                                            d[2][e].data());
    }
    std::vector<double> V(mp::velocity_expansion_size(p), -7.0);
    mp::m2v(p, M.data(), V.data());
    for (int k = 1; k < count1; ++k) {
      const double* slot = V.data() + 4 * (k - 1);
      EXPECT_EQ(slot[0], d[1][2][k] - d[2][1][k]) << "p " << p << " k " << k;
      EXPECT_EQ(slot[1], d[2][0][k] - d[0][2][k]) << "p " << p << " k " << k;
      EXPECT_EQ(slot[2], d[0][1][k] - d[1][0][k]) << "p " << p << " k " << k;
      EXPECT_EQ(slot[3], 0.0);
    }
  }
}

// One source pushed through P2M (into a child) -> M2M -> M2V -> M2P, with the target on the ray
// from the parent's center through the source. There the tail is exactly known: with s = a/R and
// the unit vector e of that ray,
//   u_direct - u_M2P = -S1 e x G,   S1 = sum_{n>p} (n+1) a^n / R^(n+2)
//   du_direct - du_M2P = eps_acd H_bc G_d,  H = S2 (3/2 e e^T - I/2),  S2 = sum_{n>p} (n+1)(n+2)
//   a^n/R^(n+3)
// so the measured error must equal the prediction for every p (it falls like s^(p+1)/(1-s)).
// The rays include the z axis through the center, upward and downward.
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
