// The VRM fractions' solve by Cholesky factorizations (eigendecompositions only where the active
// rows are rank-deficient beyond what the Gram matrix handles): on random neighbourhoods, also
// next to a wall and with rank-deficient rows, the fractions reproduce the target moments
// (computed here from the fractions), are non-negative, sum to one, satisfy the optimality
// conditions of the least-norm problem, and equal those of the eigendecomposition at every step;
// the device's path (no fallback steps) gives the host's fractions to the bit or defers.

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "support/vrm_neighbourhoods.hpp"
#include "vortex/math/small_cholesky.hpp"
#include "vortex/math/small_eigen.hpp"
#include "vortex/math/vrm_dual.hpp"
#include "vortex/vrm.hpp"
#include "vrm/vrm_solve.hpp"

namespace vortex {
namespace {

using namespace testing;  // the neighbourhoods of support/vrm_neighbourhoods.hpp

std::array<double, 10> row_of(const std::array<double, 3>& d) {
  return {1,           d[0],        d[1],        d[2],        d[0] * d[0],
          d[1] * d[1], d[2] * d[2], d[0] * d[1], d[0] * d[2], d[1] * d[2]};
}

std::array<double, 10> target_of(const VrmMoments& m) {
  return {1,           m.first[0],  m.first[1],  m.first[2],  m.second[0],
          m.second[1], m.second[2], m.second[3], m.second[4], m.second[5]};
}

// The fractions' moments, summed here.
std::array<double, 10> moments_of(const Offsets& d, const std::vector<double>& f) {
  std::array<double, 10> m{};
  for (std::size_t q = 0; q < d.size(); ++q) {
    const auto a = row_of(d[q]);
    for (int k = 0; k < 10; ++k) m[k] += f[q] * a[k];
  }
  return m;
}

// Optimality of min 1/2 sum c_q f_q^2 subject to the moments and f >= 0, c_q = 1 + |d_q|^2:
// multipliers lambda with c_q f_q = a_q . lambda where f_q > 0 and a_q . lambda <= 0 elsewhere.
// Lambda by least squares on the support; returns the largest violation of either condition.
double optimality_violation(const Offsets& d, const std::vector<double>& f) {
  const double floor = 1e-10;
  std::vector<int> support;
  for (std::size_t q = 0; q < d.size(); ++q)
    if (f[q] > floor) support.push_back(static_cast<int>(q));
  Eigen::MatrixXd a(support.size(), 10);
  Eigen::VectorXd cf(support.size());
  for (std::size_t s = 0; s < support.size(); ++s) {
    const auto& x = d[support[s]];
    const auto r = row_of(x);
    for (int k = 0; k < 10; ++k) a(s, k) = r[k];
    cf[s] = (1 + x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) * f[support[s]];
  }
  const Eigen::VectorXd lambda = a.completeOrthogonalDecomposition().solve(cf);
  double worst = (a * lambda - cf).cwiseAbs().maxCoeff();
  for (std::size_t q = 0; q < d.size(); ++q) {
    if (f[q] > floor) continue;
    const auto r = row_of(d[q]);
    double t = 0;
    for (int k = 0; k < 10; ++k) t += r[k] * lambda[k];
    worst = std::max(worst, t);
  }
  return worst;
}

// Solves by both Newton paths; when a non-negative solution exists, checks the fractions against
// the target and, where the eigen path found them too, against its fractions. Returns whether
// they exist. The Cholesky-first path must find every solution the eigen path finds; on rank-
// deficient rows the eigen path alone may miss one by rounding (seen with -march=native, whose
// vector arithmetic rounds Eigen's decompositions differently), which the independent checks
// below then judge.
bool check_both(const Offsets& d, int self, const VrmMoments& target, const char* what) {
  std::vector<double> f, f_eigen;
  detail::VrmSolveScratch scratch;
  double residual = 1, residual_eigen = 1;
  const bool ok = detail::solve_redistribution(d, self, target, f, scratch, &residual, nullptr,
                                               detail::VrmNewton::cholesky_first);
  const bool ok_eigen = detail::solve_redistribution(
      d, self, target, f_eigen, scratch, &residual_eigen, nullptr, detail::VrmNewton::eigen_only);
  EXPECT_TRUE(ok || !ok_eigen) << what << ": the eigen path found fractions, Cholesky-first not";
  if (!ok) return false;
  const auto m = moments_of(d, f), want = target_of(target);
  for (int k = 0; k < 10; ++k) EXPECT_NEAR(m[k], want[k], 1e-11) << what << ", moment " << k;
  double sum = 0;
  for (double x : f) {
    EXPECT_GE(x, -1e-14) << what;
    sum += x;
  }
  EXPECT_NEAR(sum, 1, 2e-15) << what;  // the circulation that the fractions hand on
  EXPECT_LT(optimality_violation(d, f), 1e-9) << what;
  // The least-norm fractions are unique: the previous path's agree to the solves' tolerance.
  if (ok_eigen)
    for (std::size_t q = 0; q < f.size(); ++q) EXPECT_NEAR(f[q], f_eigen[q], 1e-9) << what;
  EXPECT_LE(residual, 1e-12) << what;
  return true;
}

TEST(VrmSolve, RandomNeighbourhoodsMatchTheEigenPath) {
  std::mt19937_64 rng(11);
  int solved = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int count = 12 + trial % 30;
    const Offsets d = random_ball(rng, count, 1.5, 0.3);
    const double s2 = 0.05 + 0.1 * (trial % 4);
    solved += check_both(d, 0, free_space_moments(s2), "random ball");
  }
  EXPECT_GT(solved, 200);  // most of them have a solution
}

TEST(VrmSolve, JitteredLatticesMatchTheEigenPath) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> jitter(-0.25, 0.25);
  for (int trial = 0; trial < 100; ++trial) {
    Offsets d{{0, 0, 0}};
    for (int i = -1; i <= 1; ++i)
      for (int j = -1; j <= 1; ++j)
        for (int k = -1; k <= 1; ++k)
          if ((i || j || k) && i * i + j * j + k * k <= 2)
            d.push_back({i + jitter(rng), j + jitter(rng), k + jitter(rng)});
    EXPECT_TRUE(check_both(d, 0, free_space_moments(0.125), "jittered lattice"));
  }
}

// Neighbourhoods next to a wall, with its image moments (wall_cut_ball).
TEST(VrmSolve, NeighbourhoodsCutByAWallMatchTheEigenPath) {
  std::mt19937_64 rng(13);
  int solved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const WallCase c = wall_cut_ball(rng, 0.2 + 0.1 * (trial % 8));
    solved += check_both(c.d, 0, c.m, "wall-cut ball");
  }
  EXPECT_GT(solved, 100);
}

// A particle in the first lattice layer above a wall: every neighbour has z in {0, 1}, so
// z^2 = z for all rows and no active set spans the ten moments. Targets with sum f z^2 = sum f z
// are reachable.
TEST(VrmSolve, RankDeficientLayersNextToAWallMatchTheEigenPath) {
  std::mt19937_64 rng(14);
  std::uniform_real_distribution<double> drift(0.02, 0.3);
  for (int trial = 0; trial < 100; ++trial) {
    const bool exact = trial % 2 == 0;  // also the exact lattice: more coincident rows
    const Offsets d = lattice_layers(rng, exact ? 0 : 0.2);
    VrmMoments m = free_space_moments(0.125);
    m.first[2] = m.second[2] = drift(rng);
    EXPECT_TRUE(check_both(d, 0, m, exact ? "lattice layers" : "jittered layers"));
  }
}

TEST(VrmSolve, SmallCholeskySolvesWellConditionedAndRefusesNearSingular) {
  std::mt19937_64 rng(15);
  std::normal_distribution<double> g;
  for (int n : {1, 4, 7, 10}) {
    Eigen::MatrixXd b(n, n + 3);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n + 3; ++j) b(i, j) = g(rng);
    const Eigen::MatrixXd a = b * b.transpose();
    Eigen::VectorXd r(n), x(n);
    for (int i = 0; i < n; ++i) r[i] = g(rng);
    detail::SmallCholesky<10> cholesky;
    ASSERT_TRUE(cholesky.factor(n, [&](int i, int j) { return a(i, j); }));
    cholesky.solve(r.data(), x.data());
    EXPECT_LT((a * x - r).norm(), 1e-10 * r.norm()) << n;
  }
  // Rank 9 of 10, and a condition number of 1e12: both refused (the eigen path decides there).
  Eigen::MatrixXd b(10, 9);
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 9; ++j) b(i, j) = g(rng);
  Eigen::MatrixXd a = b * b.transpose();
  detail::SmallCholesky<10> cholesky;
  EXPECT_FALSE(cholesky.factor(10, [&](int i, int j) { return a(i, j); }));
  a = Eigen::VectorXd::LinSpaced(10, 1e-12, 1).asDiagonal();
  EXPECT_FALSE(cholesky.factor(10, [&](int i, int j) { return a(i, j); }));
}

}  // namespace
}  // namespace vortex
