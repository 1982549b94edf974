// Local expansions: M2L of source boxes into a target-box center, then L2P of velocity and
// gradient, against the direct singular sum with the error bound of local.hpp; the SIMD M2L
// against the term-by-term version; several boxes aggregated into one expansion; the L2P gradient
// against the L2P velocity; float against double.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "vortex/biot_savart.hpp"
#include "vortex/multipole/multipole.hpp"

namespace mp = vortex::multipole;
using vortex::VelocityAccumulator;
using vortex::VelocityGradientAccumulator;
using Vec3 = std::array<double, 3>;

namespace {

const double kEps = std::numeric_limits<double>::epsilon();

struct Source {
  Vec3 x, g;
};

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

VelocityGradientAccumulator<double> direct(const std::vector<Source>& s, const Vec3& t) {
  VelocityGradientAccumulator<double> acc;
  for (const Source& q : s)
    vortex::add_pair_velocity_gradient<vortex::Core::Singular, double>(
        t[0] - q.x[0], t[1] - q.x[1], t[2] - q.x[2], q.g[0], q.g[1], q.g[2], 1.0, acc);
  vortex::fold_rotation(acc);
  return acc;
}

double total_strength(const std::vector<Source>& s) {
  double g = 0;
  for (const Source& q : s) g += norm(q.g.data(), 3);
  return g;
}

}  // namespace

// The SIMD M2L adds the same terms as the term-by-term version in another order: rounding of a
// few (p+q+2) eps of the sum of absolute terms, itself at most (p+1)^2 max|M| max|I| per degree.
TEST(MultipoleLocal, SimdM2LMatchesTermByTerm) {
  std::mt19937 gen(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int p : {0, 1, 3, 8, 12}) {
    std::vector<double> M(mp::multipole_size(p));
    for (double& v : M) v = u(gen);
    for (int q : {0, 1, 2, 5, 10, 14}) {
      const Vec3 t = {0.3, -1.2, 2.0};
      std::vector<double> L1(mp::local_size(q), 0.0), L2(mp::local_size(q), 0.0);
      mp::m2l(p, q, t[0], t[1], t[2], M.data(), L1.data());
      mp::detail::m2l_generic(p, q, t[0], t[1], t[2], M.data(), L2.data());
      std::vector<double> I(mp::coefficient_count(p + q));
      mp::irregular_harmonics(p + q, t[0], t[1], t[2], I.data());
      for (int k = 0; k <= q; ++k) {
        double scale = 0;
        for (int n = 0; n <= p; ++n) {
          double imax = 0;
          for (int j = (n + k) * (n + k); j < (n + k + 1) * (n + k + 1); ++j)
            imax = std::max(imax, std::abs(I[j]));
          scale += 2 * (2 * n + 1) * imax;
        }
        for (int e = 0; e < 3; ++e)
          for (int j = k * k; j < (k + 1) * (k + 1); ++j)
            EXPECT_NEAR(L1[e * mp::coefficient_count(q) + j], L2[e * mp::coefficient_count(q) + j],
                        8 * (p + q + 2) * kEps * scale)
                << "p=" << p << " q=" << q << " j=" << j;
      }
    }
  }
}

// Sources in a ball of radius a about c_M, targets in a ball of radius b about c_L: the L2P
// velocity and gradient are within local_error_bound of the direct sum (plus rounding). The
// translations include t along +z and -z (the pole of the harmonics) and targets on the z axis
// through c_L.
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
      for (int p : {2, 4, 8, 12}) {
        for (int q : {p, p + 2}) {
          const std::vector<double> M = multipoles(p, s, cM);
          std::vector<double> L(mp::local_size(q), 0.0), W(mp::local_velocity_expansion_size(q));
          mp::m2l(p, q, cL[0] - cM[0], cL[1] - cM[1], cL[2] - cM[2], M.data(), L.data());
          mp::l2w(q, L.data(), W.data());
          const double bu = G * mp::local_error_bound(p, q, a, b, R, 1);
          const double bdu = G * mp::local_error_bound(p, q, a, b, R, 2);
          for (const Vec3& t : targets) {
            const VelocityGradientAccumulator<double> ref = direct(s, t);
            VelocityGradientAccumulator<double> got;
            VelocityAccumulator<double> got_u;
            mp::l2p_velocity_gradient(q, W.data(), t[0] - cL[0], t[1] - cL[1], t[2] - cL[2], got);
            mp::l2p_velocity(q, W.data(), t[0] - cL[0], t[1] - cL[1], t[2] - cL[2], got_u);
            double du[3], ddu[9];
            for (int i = 0; i < 3; ++i) du[i] = ref.u[i] - got.u[i];
            for (int i = 0; i < 9; ++i) ddu[i] = ref.du[i] - got.du[i];
            const double round = 64 * (p + q + 2) * kEps;
            EXPECT_LE(norm(du, 3), bu + round * norm(ref.u, 3)) << "p=" << p << " q=" << q;
            EXPECT_LE(norm(ddu, 9), bdu + round * norm(ref.du, 9)) << "p=" << p << " q=" << q;
            for (int i = 0; i < 3; ++i) EXPECT_NEAR(got_u.u[i], got.u[i], round * norm(ref.u, 3));
          }
        }
      }
    }
  }
}

// The error falls with the order as the bound predicts: at R = 3, a = 0.5, b = 0.4 the measured
// velocity error at q = p + 2 drops by at least ((a+b)/R)^4 / 4 over four orders and stays under
// the bound, which itself falls like ((a+b)/R)^(p+1).
TEST(MultipoleLocal, ErrorFallsWithOrder) {
  const Vec3 cM = {0, 0, 0}, cL = {0.5, -1.0, 2.75};
  const double a = 0.5, b = 0.4, R = norm(cL.data(), 3);
  const std::vector<Source> s = cluster(4, 100, cM, a);
  const double G = total_strength(s);
  std::mt19937 gen(5);
  const std::vector<Vec3> targets = ball(gen, 10, cL, b);
  std::vector<double> err;
  for (int p = 1; p <= 14; ++p) {
    const int q = p + 2;
    std::vector<double> L(mp::local_size(q), 0.0), W(mp::local_velocity_expansion_size(q));
    mp::m2l(p, q, cL[0], cL[1], cL[2], multipoles(p, s, cM).data(), L.data());
    mp::l2w(q, L.data(), W.data());
    double e = 0;
    for (const Vec3& t : targets) {
      const VelocityGradientAccumulator<double> ref = direct(s, t);
      VelocityAccumulator<double> got;
      mp::l2p_velocity(q, W.data(), t[0] - cL[0], t[1] - cL[1], t[2] - cL[2], got);
      const double d[3] = {ref.u[0] - got.u[0], ref.u[1] - got.u[1], ref.u[2] - got.u[2]};
      e = std::max(e, norm(d, 3));
    }
    EXPECT_LE(e, G * mp::local_error_bound(p, q, a, b, R, 1)) << "p=" << p;
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
  std::vector<double> L(mp::local_size(q), 0.0), W(mp::local_velocity_expansion_size(q));
  std::vector<Source> all;
  double bu = 0, bdu = 0;
  for (int i = 0; i < static_cast<int>(centers.size()); ++i) {
    const std::vector<Source> s = cluster(10 + i, 50, centers[i], a);
    const Vec3& c = centers[i];
    mp::m2l(p, q, cL[0] - c[0], cL[1] - c[1], cL[2] - c[2], multipoles(p, s, c).data(), L.data());
    const double R = std::sqrt((cL[0] - c[0]) * (cL[0] - c[0]) + (cL[1] - c[1]) * (cL[1] - c[1]) +
                               (cL[2] - c[2]) * (cL[2] - c[2]));
    bu += total_strength(s) * mp::local_error_bound(p, q, a, b, R, 1);
    bdu += total_strength(s) * mp::local_error_bound(p, q, a, b, R, 2);
    all.insert(all.end(), s.begin(), s.end());
  }
  mp::l2w(q, L.data(), W.data());
  std::mt19937 gen(6);
  for (const Vec3& t : ball(gen, 8, cL, b)) {
    const VelocityGradientAccumulator<double> ref = direct(all, t);
    VelocityGradientAccumulator<double> got;
    mp::l2p_velocity_gradient(q, W.data(), t[0] - cL[0], t[1] - cL[1], t[2] - cL[2], got);
    double du[3], ddu[9];
    for (int i = 0; i < 3; ++i) du[i] = ref.u[i] - got.u[i];
    for (int i = 0; i < 9; ++i) ddu[i] = ref.du[i] - got.du[i];
    EXPECT_LE(norm(du, 3), bu + 1e-13 * norm(ref.u, 3));
    EXPECT_LE(norm(ddu, 9), bdu + 1e-13 * norm(ref.du, 9));
  }
}

// The L2P gradient is traceless and is the derivative of the L2P velocity. The velocity is
// sum_j W_j R_j(z); by the ladder relations a derivative of a degree-n regular harmonic is bounded
// by the largest harmonic of degree n-1, so the h^4/30 f^(5) term of the fourth-order central
// difference is at most h^4/30 sum_j |W_j| max|R_{n(j)-5}| over the stencil.
TEST(MultipoleLocal, GradientIsTracelessAndDifferentiatesTheVelocity) {
  const Vec3 cM = {0, 0, 0}, cL = {0.4, 0.3, -2.5};
  const std::vector<Source> s = cluster(7, 60, cM, 0.5);
  const double w[4] = {1, -8, 8, -1};
  const int off[4] = {-2, -1, 1, 2};
  for (int q : {1, 2, 5, 10, 18}) {
    const int p = std::min(q, mp::kMaxOrder);
    std::vector<double> L(mp::local_size(q), 0.0), W(mp::local_velocity_expansion_size(q));
    mp::m2l(p, q, cL[0], cL[1], cL[2], multipoles(p, s, cM).data(), L.data());
    mp::l2w(q, L.data(), W.data());
    std::vector<double> R(mp::coefficient_count(q));
    for (const Vec3& d :
         {Vec3{0.1, -0.2, 0.15}, Vec3{0, 0, 0.3}, Vec3{0, 0, -0.3}, Vec3{0, 0, 0}}) {
      VelocityGradientAccumulator<double> g;
      mp::l2p_velocity_gradient(q, W.data(), d[0], d[1], d[2], g);
      const double scale = norm(g.du, 9) + norm(g.u, 3);
      EXPECT_NEAR(g.du[0] + g.du[4] + g.du[8], 0.0, 64 * (q + 2) * kEps * scale) << "q=" << q;
      const double h = 1e-3;
      for (int bdir = 0; bdir < 3; ++bdir) {
        double fd[3] = {0, 0, 0}, abs_sum = 0;
        std::vector<double> rmax(q, 0.0);  // largest |R| of each degree on the stencil
        for (int k = 0; k < 4; ++k) {
          double x[3] = {d[0], d[1], d[2]};
          x[bdir] += off[k] * h;
          VelocityAccumulator<double> v;
          mp::l2p_velocity(q, W.data(), x[0], x[1], x[2], v);
          for (int i = 0; i < 3; ++i) fd[i] += w[k] * v.u[i] / (12 * h);
          abs_sum += std::abs(w[k]) * norm(v.u, 3) / (12 * h);
          mp::regular_harmonics(q - 1, x[0], x[1], x[2], R.data());
          for (int n = 0; n < q; ++n)
            for (int j = n * n; j < (n + 1) * (n + 1); ++j)
              rmax[n] = std::max(rmax[n], std::abs(R[j]));
        }
        double f5 = 0;
        for (int n = 5; n < q; ++n)
          for (int j = n * n; j < (n + 1) * (n + 1); ++j) f5 += norm(&W[4 * j], 3) * rmax[n - 5];
        const double tol = 2 * std::pow(h, 4) / 30 * f5 + 8 * (q + 2) * kEps * abs_sum;
        for (int i = 0; i < 3; ++i)
          EXPECT_NEAR(g.du[3 * i + bdir], fd[i], tol) << "q=" << q << " du" << i << "/dx" << bdir;
      }
    }
  }
}

TEST(MultipoleLocal, FloatL2PAgreesWithDouble) {
  const Vec3 cM = {0, 0, 0}, cL = {1.5, -1.0, 2.0};
  const std::vector<Source> s = cluster(8, 60, cM, 0.5);
  const double epsf = std::numeric_limits<float>::epsilon();
  for (int q : {2, 6, 9, 10, 12}) {
    std::vector<double> L(mp::local_size(q), 0.0), W(mp::local_velocity_expansion_size(q));
    mp::m2l(q - 2, q, cL[0], cL[1], cL[2], multipoles(q - 2, s, cM).data(), L.data());
    mp::l2w(q, L.data(), W.data());
    const std::vector<float> Wf(W.begin(), W.end());
    for (const Vec3& d : {Vec3{0.2, -0.1, 0.3}, Vec3{0, 0, 0.4}, Vec3{0, 0, -0.4}}) {
      VelocityGradientAccumulator<double> gd;
      VelocityGradientAccumulator<float> gf;
      mp::l2p_velocity_gradient(q, W.data(), d[0], d[1], d[2], gd);
      mp::l2p_velocity_gradient(q, Wf.data(), float(d[0]), float(d[1]), float(d[2]), gf);
      // A few (q+2) float roundings of the magnitude of the result.
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(gf.u[i], gd.u[i], 16 * (q + 2) * epsf * norm(gd.u, 3)) << "q=" << q;
      for (int i = 0; i < 9; ++i)
        EXPECT_NEAR(gf.du[i], gd.du[i], 16 * (q + 2) * epsf * norm(gd.du, 9)) << "q=" << q;
    }
  }
}

TEST(MultipoleLocal, OrdersOutsideTheRangeAreRejected) {
  std::vector<double> M(mp::multipole_size(mp::kMaxOrder), 0.0);
  std::vector<double> L(mp::local_size(mp::kMaxLocalOrder + 1), 0.0);
  std::vector<double> W(mp::local_velocity_expansion_size(mp::kMaxLocalOrder + 1), 0.0);
  VelocityGradientAccumulator<double> acc;
  EXPECT_THROW(mp::m2l(4, mp::kMaxLocalOrder + 1, 3.0, 0.0, 0.0, M.data(), L.data()),
               std::invalid_argument);
  EXPECT_THROW(mp::m2l(mp::kMaxOrder + 1, 4, 3.0, 0.0, 0.0, M.data(), L.data()),
               std::invalid_argument);
  EXPECT_THROW(mp::l2w(0, L.data(), W.data()), std::invalid_argument);
  EXPECT_THROW(mp::l2p_velocity(0, W.data(), 0.0, 0.0, 0.0, acc), std::invalid_argument);
  EXPECT_THROW(mp::l2p_velocity_gradient(mp::kMaxLocalOrder + 1, W.data(), 0.0, 0.0, 0.0, acc),
               std::invalid_argument);
}
