// Multipole expansions of vortex particles, how they are built: P2M's monopole, M2M against a
// direct P2M and the addition theorem, and the velocity expansion's slots against the ladder.

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
