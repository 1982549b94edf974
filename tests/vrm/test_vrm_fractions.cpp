// The VRM's fractions: non-negative exact solutions on lattice stencils and jittered neighbours,
// no solution without neighbours on every side, and first-moment fractions for removals.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "vortex/vrm.hpp"

namespace vortex {
namespace {

// Lattice offsets with |d|^2 <= max_norm2 (in units of h); `self` gets the zero offset's index.
std::vector<std::array<double, 3>> lattice_stencil(int max_norm2, int& self) {
  std::vector<std::array<double, 3>> offsets;
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j)
      for (int k = -2; k <= 2; ++k) {
        const int d2 = i * i + j * j + k * k;
        if (d2 > max_norm2) continue;
        if (d2 == 0) self = static_cast<int>(offsets.size());
        offsets.push_back({double(i), double(j), double(k)});
      }
  return offsets;
}

// The ten moments of a set of fractions.
std::array<double, 10> moments(const std::vector<std::array<double, 3>>& d,
                               const std::vector<double>& f) {
  std::array<double, 10> m{};
  for (std::size_t q = 0; q < d.size(); ++q) {
    const double row[10] = {1,
                            d[q][0],
                            d[q][1],
                            d[q][2],
                            d[q][0] * d[q][0],
                            d[q][1] * d[q][1],
                            d[q][2] * d[q][2],
                            d[q][0] * d[q][1],
                            d[q][0] * d[q][2],
                            d[q][1] * d[q][2]};
    for (int k = 0; k < 10; ++k) m[k] += f[q] * row[k];
  }
  return m;
}

void expect_exact_moments(const std::vector<std::array<double, 3>>& d, const std::vector<double>& f,
                          double s2) {
  const auto m = moments(d, f);
  const double target[10] = {1, 0, 0, 0, s2, s2, s2, 0, 0, 0};
  for (int k = 0; k < 10; ++k) EXPECT_NEAR(m[k], target[k], 1e-11) << "moment " << k;
  for (double x : f) EXPECT_GE(x, -1e-14);
}

TEST(VrmFractions, LatticeStencilsHaveNonNegativeExactSolutions) {
  for (int reach : {1, 2, 3}) {  // faces; faces and edges; and corners
    int self = -1;
    const auto d = lattice_stencil(reach, self);
    for (double s2 : {1e-4, 0.05, 0.25, 0.5}) {
      if (reach == 1 && s2 > 1.0 / 3) continue;  // six faces reach at most 1/3
      std::vector<double> f;
      double residual = 1;
      int iterations = 0;
      ASSERT_TRUE(solve_redistribution(d, self, s2, f, &residual, &iterations))
          << "reach " << reach << " s2 " << s2;
      expect_exact_moments(d, f, s2);
      EXPECT_LT(iterations, 30);
    }
  }
}

TEST(VrmFractions, JitteredNeighboursStillSolve) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  int self = -1;
  auto d = lattice_stencil(2, self);
  for (auto& x : d)
    if (x != std::array<double, 3>{0, 0, 0})
      for (double& c : x) c += jitter(rng);
  std::vector<double> f;
  ASSERT_TRUE(solve_redistribution(d, self, 0.2, f));
  expect_exact_moments(d, f, 0.2);
}

TEST(VrmFractions, NoSolutionWithoutNeighboursOnEverySide) {
  int self = -1;
  auto d = lattice_stencil(2, self);
  // Remove every neighbour with a positive x offset: the first moment cannot vanish.
  std::vector<std::array<double, 3>> half;
  int half_self = -1;
  for (const auto& x : d) {
    if (x[0] > 0) continue;
    if (x == std::array<double, 3>{0, 0, 0}) half_self = static_cast<int>(half.size());
    half.push_back(x);
  }
  std::vector<double> f;
  EXPECT_FALSE(solve_redistribution(half, half_self, 0.1, f));
  // A second moment larger than the faces-and-edges stencil can reach.
  EXPECT_FALSE(solve_redistribution(d, self, 1.5, f));
  // The signed least-norm solution exists for the full stencil at any second moment.
  ASSERT_TRUE(solve_redistribution_signed(d, self, 1.5, f));
  const auto m = moments(d, f);
  EXPECT_NEAR(m[0], 1, 1e-12);
  EXPECT_NEAR(m[4], 1.5, 1e-10);
}

TEST(VrmFractions, FirstMomentFractionsForRemovals) {
  std::vector<std::array<double, 3>> faces = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                              {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
  std::vector<double> f;
  ASSERT_TRUE(solve_first_moment_fractions(faces, f));
  for (double x : f) EXPECT_NEAR(x, 1.0 / 6, 1e-14);
  // Off-center: still non-negative, zeroth and first moments exact.
  for (auto& d : faces) d[0] += 0.3;
  ASSERT_TRUE(solve_first_moment_fractions(faces, f));
  double m0 = 0, mx = 0;
  for (std::size_t q = 0; q < f.size(); ++q) {
    EXPECT_GE(f[q], 0.0);
    m0 += f[q];
    mx += f[q] * faces[q][0];
  }
  EXPECT_NEAR(m0, 1, 1e-15);
  EXPECT_NEAR(mx, 0, 1e-12);
  // Outside the receivers' hull there is no non-negative solution.
  for (auto& d : faces) d[0] += 2;
  EXPECT_FALSE(solve_first_moment_fractions(faces, f));
}

}  // namespace
}  // namespace vortex
