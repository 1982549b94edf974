// Local expansions: M2L of source boxes into a target centre, then L2P of velocity and gradient
// (the CPU's SIMD lanes), against the direct singular sum within the error bound of
// local_error.hpp; several boxes in one expansion; L2L against the expansion it shifts; float L2P
// against double. The terms' other forms: test_multipole_local_terms.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "vortex/multipole/multipole.hpp"

namespace mp = vortex::multipole;
using Vec3 = std::array<double, 3>;

namespace {

const double kEps = std::numeric_limits<double>::epsilon();

struct Source {
  Vec3 x, g;
};

// Velocity u[0..2] and gradient u[3 + 3a + b] = du_a/dx_b, without 1/(4 pi).
using Field = std::array<double, 12>;

double norm(const double* v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i] * v[i];
  return std::sqrt(s);
}

// Points uniform in the ball of radius r about c.
std::vector<Vec3> ball(std::mt19937& gen, int n, const Vec3& c, double r) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Vec3> pts;
  while (static_cast<int>(pts.size()) < n) {
    const Vec3 d = {u(gen), u(gen), u(gen)};
    if (norm(d.data(), 3) <= 1) pts.push_back({c[0] + r * d[0], c[1] + r * d[1], c[2] + r * d[2]});
  }
  return pts;
}

std::vector<Source> cluster(unsigned seed, int n, const Vec3& c, double a) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Source> s;
  for (const Vec3& x : ball(gen, n, c, a)) s.push_back({x, {u(gen), u(gen), u(gen)}});
  return s;
}

std::vector<double> multipoles(int p, const std::vector<Source>& s, const Vec3& c) {
  std::vector<double> M(mp::multipole_size(p), 0.0);
  for (const Source& q : s)
    mp::p2m(p, q.x[0] - c[0], q.x[1] - c[1], q.x[2] - c[2], q.g[0], q.g[1], q.g[2], M.data());
  return M;
}

// The singular Biot-Savart sum: u = sum G x d / r^3, du_a/dx_b = sum -3 d_b (G x d)_a / r^5 +
// eps_acb G_c / r^3, d = x - x_j.
Field direct(const std::vector<Source>& s, const Vec3& t) {
  Field f{};
  for (const Source& q : s) {
    const double d[3] = {t[0] - q.x[0], t[1] - q.x[1], t[2] - q.x[2]};
    const double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    const double i3 = 1 / (r2 * std::sqrt(r2)), i5 = i3 / r2;
    const double c[3] = {q.g[1] * d[2] - q.g[2] * d[1], q.g[2] * d[0] - q.g[0] * d[2],
                         q.g[0] * d[1] - q.g[1] * d[0]};
    for (int a = 0; a < 3; ++a) {
      f[a] += c[a] * i3;
      for (int b = 0; b < 3; ++b) f[3 + 3 * a + b] += -3 * d[b] * c[a] * i5;
    }
    // eps_acb G_c: du_a/dx_b gets -eps_abc G_c.
    f[3 + 1] -= q.g[2] * i3, f[3 + 2] += q.g[1] * i3;
    f[3 + 3] += q.g[2] * i3, f[3 + 5] -= q.g[0] * i3;
    f[3 + 6] -= q.g[1] * i3, f[3 + 7] += q.g[0] * i3;
  }
  return f;
}

double total_strength(const std::vector<Source>& s) {
  double g = 0;
  for (const Source& q : s) g += norm(q.g.data(), 3);
  return g;
}

// L2P of the local expansions L (order q, about c) at the targets through the far field's lanes:
// the targets in padded columns of T, the sums in double.
template <class T>
std::vector<Field> l2p(int q, const std::vector<double>& L, const Vec3& c,
                       const std::vector<Vec3>& targets, bool gradient = true) {
  std::vector<T> G(mp::local_gradient_expansion_size(q));
  mp::local_gradient_expansion(q, L.data(), G.data());
  const int n = static_cast<int>(targets.size()), padded = (n + 15) / 16 * 16;
  std::vector<T> x(padded), y(padded), z(padded);
  for (int i = 0; i < padded; ++i) {
    const Vec3& t = targets[std::min(i, n - 1)];
    x[i] = T(t[0]), y[i] = T(t[1]), z[i] = T(t[2]);
  }
  std::vector<double> sums(12 * padded, 0.0);
  const T cc[3] = {T(c[0]), T(c[1]), T(c[2])};
  const mp::LeafLanes<T> lanes{x.data(), y.data(), z.data(), padded, sums.data()};
  vortex::dispatch_order<2, mp::kMaxLocalOrder>(
      q, "l2p", [&](auto Q) { mp::l2p_lanes<decltype(Q)::value>(G.data(), cc, gradient, lanes); });
  std::vector<Field> out(n);
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 12; ++k) out[i][k] = sums[k * padded + i];
  return out;
}

// |a - b| over the velocity (0..2) and the gradient (3..11).
std::array<double, 2> difference(const Field& a, const Field& b) {
  double du[3], dg[9];
  for (int i = 0; i < 3; ++i) du[i] = a[i] - b[i];
  for (int i = 0; i < 9; ++i) dg[i] = a[3 + i] - b[3 + i];
  return {norm(du, 3), norm(dg, 9)};
}

}  // namespace

// Sources in a ball of radius a about c_M, targets in a ball of radius b about c_L: the L2P
// velocity and gradient are within local_error_bound of the direct sum (plus rounding). The
// translations include t along +z and -z (the pole of the harmonics) and targets on the z axis
// through c_L, and the centre itself.
TEST(MultipoleLocal, WithinTheErrorBoundOfTheDirectSum) {
  const Vec3 cM = {0.1, -0.3, 0.2};
  const double a = 0.5, b = 0.4;
  const std::vector<Source> s = cluster(2, 150, cM, a);
  const double G = total_strength(s);
  const std::vector<Vec3> dirs = {{0, 0, 1}, {0, 0, -1}, {0.6, 0.0, 0.8}, {-0.48, 0.64, -0.6}};
  std::mt19937 gen(3);
  for (double R : {2.0, 3.0}) {
    for (const Vec3& e : dirs) {
      const Vec3 cL = {cM[0] + R * e[0], cM[1] + R * e[1], cM[2] + R * e[2]};
      std::vector<Vec3> targets = ball(gen, 6, cL, b);
      targets.push_back({cL[0], cL[1], cL[2] + 0.9 * b});
      targets.push_back({cL[0], cL[1], cL[2] - 0.9 * b});
      targets.push_back(cL);
      std::vector<Field> ref;
      for (const Vec3& t : targets) ref.push_back(direct(s, t));
      for (int p : {2, 4, 8, 12}) {
        const int q = p + 2;
        std::vector<double> L(mp::local_size(q), 0.0);
        mp::m2l(p, q, cL[0] - cM[0], cL[1] - cM[1], cL[2] - cM[2], multipoles(p, s, cM).data(),
                L.data());
        const std::vector<Field> got = l2p<double>(q, L, cL, targets);
        const std::vector<Field> got_u = l2p<double>(q, L, cL, targets, false);
        const double bu = G * mp::local_error_bound(p, q, a, b, R, 1);
        const double bdu = G * mp::local_error_bound(p, q, a, b, R, 2);
        for (std::size_t i = 0; i < targets.size(); ++i) {
          const std::array<double, 2> d = difference(got[i], ref[i]);
          const double round = 64 * (p + q + 2) * kEps;
          EXPECT_LE(d[0], bu + round * norm(ref[i].data(), 3)) << "p=" << p << " R=" << R;
          EXPECT_LE(d[1], bdu + round * norm(ref[i].data() + 3, 9)) << "p=" << p << " R=" << R;
          for (int k = 0; k < 3; ++k)
            EXPECT_NEAR(got_u[i][k], got[i][k], round * norm(ref[i].data(), 3));
        }
      }
    }
  }
}

// The error falls with the order as the bound predicts, and stays under it.
TEST(MultipoleLocal, ErrorFallsWithOrder) {
  const Vec3 cM = {0, 0, 0}, cL = {0.5, -1.0, 2.75};
  const double a = 0.5, b = 0.4, R = norm(cL.data(), 3);
  const std::vector<Source> s = cluster(4, 100, cM, a);
  const double G = total_strength(s);
  std::mt19937 gen(5);
  const std::vector<Vec3> targets = ball(gen, 10, cL, b);
  std::vector<Field> ref;
  for (const Vec3& t : targets) ref.push_back(direct(s, t));
  std::vector<double> err;
  for (int p = 1; p <= 14; ++p) {
    const int q = p + 2;
    std::vector<double> L(mp::local_size(q), 0.0);
    mp::m2l(p, q, cL[0], cL[1], cL[2], multipoles(p, s, cM).data(), L.data());
    const std::vector<Field> got = l2p<double>(q, L, cL, targets);
    double e = 0, eg = 0;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      e = std::max(e, difference(got[i], ref[i])[0]);
      eg = std::max(eg, difference(got[i], ref[i])[1]);
    }
    EXPECT_LE(e, G * mp::local_error_bound(p, q, a, b, R, 1)) << "p=" << p;
    EXPECT_LE(eg, G * mp::local_error_bound(p, q, a, b, R, 2)) << "p=" << p;
    err.push_back(e);
  }
  const double s4 = std::pow((a + b) / R, 4);
  for (int i = 0; i + 4 < static_cast<int>(err.size()); ++i)
    EXPECT_LE(err[i + 4], err[i] * s4 * 4) << "p=" << i + 1;
}

// Several source boxes translated into one local expansion: the L2P of the sum equals the direct
// sum within the sum of the per-box bounds.
TEST(MultipoleLocal, AggregatesSeveralBoxes) {
  const Vec3 cL = {0.2, 0.1, -0.1};
  const double b = 0.3, a = 0.35;
  const int p = 8, q = 10;
  const std::vector<Vec3> centers = {{2.0, 0, 0}, {0, 0, 2.2}, {0, 0, -2.4}, {-1.5, 1.5, 0.5}};
  std::vector<double> L(mp::local_size(q), 0.0);
  std::vector<Source> all;
  double bu = 0, bdu = 0;
  for (int i = 0; i < static_cast<int>(centers.size()); ++i) {
    const std::vector<Source> s = cluster(10 + i, 50, centers[i], a);
    const Vec3& c = centers[i];
    mp::m2l(p, q, cL[0] - c[0], cL[1] - c[1], cL[2] - c[2], multipoles(p, s, c).data(), L.data());
    const double d[3] = {cL[0] - c[0], cL[1] - c[1], cL[2] - c[2]};
    bu += total_strength(s) * mp::local_error_bound(p, q, a, b, norm(d, 3), 1);
    bdu += total_strength(s) * mp::local_error_bound(p, q, a, b, norm(d, 3), 2);
    all.insert(all.end(), s.begin(), s.end());
  }
  std::mt19937 gen(6);
  const std::vector<Vec3> targets = ball(gen, 8, cL, b);
  const std::vector<Field> got = l2p<double>(q, L, cL, targets);
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const Field ref = direct(all, targets[i]);
    const std::array<double, 2> d = difference(got[i], ref);
    EXPECT_LE(d[0], bu + 1e-13 * norm(ref.data(), 3));
    EXPECT_LE(d[1], bdu + 1e-13 * norm(ref.data() + 3, 9));
  }
}

// L2L shifts the polynomial exactly: the shifted expansion evaluated about the child's centre
// equals the parent's evaluated at the same points (psi, velocity and gradient), to rounding of
// the terms' magnitude; and the child's expansion is as accurate against the direct sum as an M2L
// straight into the child's centre.
TEST(MultipoleLocal, L2LShiftsTheExpansionExactly) {
  const Vec3 cM = {0, 0, 0}, cP = {0.3, -0.4, 3.0};
  const std::vector<Source> s = cluster(9, 80, cM, 0.5);
  const std::vector<Vec3> shifts = {{0.2, -0.1, 0.15}, {0, 0, 0.25}, {0, 0, -0.25}, {0, 0, 0}};
  std::mt19937 gen(7);
  for (int p : {3, 9}) {
    const int q = p + 2, count = mp::coefficient_count(q);
    std::vector<double> LP(mp::local_size(q), 0.0);
    mp::m2l(p, q, cP[0] - cM[0], cP[1] - cM[1], cP[2] - cM[2], multipoles(p, s, cM).data(),
            LP.data());
    for (const Vec3& t : shifts) {
      const Vec3 cC = {cP[0] + t[0], cP[1] + t[1], cP[2] + t[2]};
      std::vector<double> LC(mp::local_size(q), 0.0);
      mp::l2l(q, t[0], t[1], t[2], LP.data(), LC.data());
      const std::vector<Vec3> targets = ball(gen, 5, cC, 0.2);
      std::vector<double> RP(count), RC(count);
      for (const Vec3& x : targets) {
        mp::regular_harmonics(q, x[0] - cP[0], x[1] - cP[1], x[2] - cP[2], RP.data());
        mp::regular_harmonics(q, x[0] - cC[0], x[1] - cC[1], x[2] - cC[2], RC.data());
        for (int e = 0; e < 3; ++e) {
          double psi_p = 0, psi_c = 0, scale = 0;
          for (int j = 0; j < count; ++j) {
            psi_p += LP[e * count + j] * RP[j];
            psi_c += LC[e * count + j] * RC[j];
            scale += std::abs(LP[e * count + j] * RP[j]);
          }
          EXPECT_NEAR(psi_c, psi_p, 64 * (q + 2) * kEps * scale) << "p=" << p;
        }
      }
      const std::vector<Field> from_parent = l2p<double>(q, LP, cP, targets);
      const std::vector<Field> from_child = l2p<double>(q, LC, cC, targets);
      for (std::size_t i = 0; i < targets.size(); ++i) {
        const Field ref = direct(s, targets[i]);
        const std::array<double, 2> d = difference(from_child[i], from_parent[i]);
        EXPECT_LE(d[0], 1e-12 * norm(ref.data(), 3)) << "p=" << p;
        EXPECT_LE(d[1], 1e-12 * norm(ref.data() + 3, 9)) << "p=" << p;
      }
    }
  }
}

// The L2P gradient is traceless, and float lanes agree with double ones to float's rounding.
TEST(MultipoleLocal, FloatL2PAgreesWithDouble) {
  const Vec3 cM = {0, 0, 0}, cL = {1.5, -1.0, 2.0};
  const std::vector<Source> s = cluster(8, 60, cM, 0.5);
  const double epsf = std::numeric_limits<float>::epsilon();
  const std::vector<Vec3> targets = {
      {cL[0] + 0.2, cL[1] - 0.1, cL[2] + 0.3}, {cL[0], cL[1], cL[2] + 0.4}, {cL[0], cL[1], 1.6}};
  for (int q : {3, 6, 9, 11, 14}) {
    std::vector<double> L(mp::local_size(q), 0.0);
    mp::m2l(q - 2, q, cL[0], cL[1], cL[2], multipoles(q - 2, s, cM).data(), L.data());
    const std::vector<Field> d = l2p<double>(q, L, cL, targets);
    const std::vector<Field> f = l2p<float>(q, L, cL, targets);
    for (std::size_t i = 0; i < targets.size(); ++i) {
      const double su = norm(d[i].data(), 3), sg = norm(d[i].data() + 3, 9);
      EXPECT_NEAR(d[i][3] + d[i][7] + d[i][11], 0.0, 64 * (q + 2) * kEps * sg) << "q=" << q;
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(f[i][k], d[i][k], 64 * (q + 2) * epsf * su);
      for (int k = 3; k < 12; ++k) EXPECT_NEAR(f[i][k], d[i][k], 64 * (q + 2) * epsf * sg);
    }
  }
}

TEST(MultipoleLocal, OrdersOutsideTheRangeAreRejected) {
  std::vector<double> M(mp::multipole_size(mp::kMaxOrder), 0.0);
  std::vector<double> L(mp::local_size(mp::kMaxLocalOrder + 1), 0.0), L2(L);
  std::vector<double> G(mp::local_gradient_expansion_size(mp::kMaxLocalOrder + 1));
  EXPECT_THROW(mp::m2l(4, mp::kMaxLocalOrder + 1, 3.0, 0.0, 0.0, M.data(), L.data()),
               std::invalid_argument);
  EXPECT_THROW(mp::m2l(mp::kMaxOrder + 1, 4, 3.0, 0.0, 0.0, M.data(), L.data()),
               std::invalid_argument);
  EXPECT_THROW(mp::l2l(mp::kMaxLocalOrder + 1, 0.1, 0.0, 0.0, L.data(), L2.data()),
               std::invalid_argument);
  EXPECT_THROW(mp::local_gradient_expansion(0, L.data(), G.data()), std::invalid_argument);
}
