// The local expansions' terms against their other forms: the SIMD M2L against the term-by-term
// one, several orders a lane against one order at a time, the term-by-term L2L
// (the device's) against the vectorized shift, and the gradient expansion built in parts (as a
// device block builds it) against one thread. Accuracy against direct sums:
// test_multipole_local.cpp.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "vortex/multipole/multipole.hpp"

namespace mp = vortex::multipole;
using Vec3 = std::array<double, 3>;

namespace {

const double kEps = std::numeric_limits<double>::epsilon();

// n values drawn uniformly in [-1, 1).
std::vector<double> uniform_values(std::mt19937& gen, std::size_t n) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = u(gen);
  return v;
}

// Several orders l at once (sliding the harmonics from one m to the next)
// give each order's sums as one order at a time: the same products in the same order, to the
// rounding of fused multiply-adds that the compiler may place differently (a few eps of the
// degree's largest sum, where a misplaced harmonic would be of the order of the sums).
template <int L>
void expect_blocked_orders_equal_single(int p, int q) {
  std::mt19937 gen(5);
  const std::vector<double> M = uniform_values(gen, mp::multipole_size(p));
  const int countI = mp::coefficient_count(p + q);
  std::vector<double> I(countI), re(countI + 2 * L, 7.0), im(countI + 2 * L, -7.0);
  mp::irregular_harmonics(p + q, 0.4, 1.1, -0.7, I.data());
  mp::detail::signed_harmonics(p + q, I.data(), re.data() + L, im.data() + L);
  const int count = mp::coefficient_count(p);
  for (int k = 0; k <= q; ++k) {
    double largest = 0;  // of degree k's sums
    for (int l = 0; l <= k; ++l) {
      double sre[1][3], sim[1][3];
      mp::detail::m2l_coefficients<double, 1>(p, k, l, M.data(), count, re.data() + L,
                                              im.data() + L, sre, sim);
      for (int e = 0; e < 3; ++e)
        largest = std::max({largest, std::abs(sre[0][e]), std::abs(sim[0][e])});
    }
    for (int l0 = 0; l0 <= k; l0 += L) {
      double bre[L][3], bim[L][3];
      mp::detail::m2l_coefficients<double, L>(p, k, l0, M.data(), count, re.data() + L,
                                              im.data() + L, bre, bim);
      for (int i = 0; i < L && l0 + i <= k; ++i) {
        double sre[1][3], sim[1][3];
        mp::detail::m2l_coefficients<double, 1>(p, k, l0 + i, M.data(), count, re.data() + L,
                                                im.data() + L, sre, sim);
        for (int e = 0; e < 3; ++e) {
          EXPECT_NEAR(bre[i][e], sre[0][e], 16 * kEps * largest)
              << "L=" << L << " k=" << k << " l=" << l0 + i;
          EXPECT_NEAR(bim[i][e], sim[0][e], 16 * kEps * largest)
              << "L=" << L << " k=" << k << " l=" << l0 + i;
        }
      }
    }
  }
}

}  // namespace

// The SIMD M2L adds the same terms as the term-by-term version in another order: rounding of a
// few (p+q+2) eps of the sum of absolute terms, itself at most (p+1)^2 max|M| max|I| per degree.
TEST(MultipoleLocal, SimdM2LMatchesTermByTerm) {
  std::mt19937 gen(1);
  for (int p : {0, 1, 3, 8, 12}) {
    const std::vector<double> M = uniform_values(gen, mp::multipole_size(p));
    for (int q : {0, 1, 2, 5, 10, 14}) {
      const Vec3 t = {0.3, -1.2, 2.0};
      std::vector<double> L1(mp::local_size(q), 0.0), L2(mp::local_size(q), 0.0);
      mp::m2l(p, q, t[0], t[1], t[2], M.data(), L1.data());
      mp::detail::m2l_terms(p, q, t[0], t[1], t[2], M.data(), L2.data());
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

TEST(MultipoleLocal, BlockedOrdersEqualOneOrderAtATime) {
  for (const auto& pq : {std::array<int, 2>{0, 2}, {3, 5}, {9, 11}, {16, 18}}) {
    expect_blocked_orders_equal_single<2>(pq[0], pq[1]);
    expect_blocked_orders_equal_single<3>(pq[0], pq[1]);
    expect_blocked_orders_equal_single<4>(pq[0], pq[1]);
    expect_blocked_orders_equal_single<6>(pq[0], pq[1]);
  }
}

// The term-by-term L2L (whose terms the device sums, one thread a coefficient) equals the
// vectorized one to rounding of the terms' magnitude.
TEST(MultipoleLocal, L2LTermsMatchTheVectorizedShift) {
  std::mt19937 gen(3);
  for (int q : {1, 4, 10, 15}) {
    const std::vector<double> L = uniform_values(gen, mp::local_size(q));
    const Vec3 t = {0.21, -0.17, 0.3};
    std::vector<double> a(mp::local_size(q), 0.0), b(mp::local_size(q), 0.0);
    mp::l2l(q, t[0], t[1], t[2], L.data(), a.data());
    mp::detail::l2l_terms(q, t[0], t[1], t[2], L.data(), b.data());
    double scale = 0;
    for (double v : L) scale += std::abs(v);
    for (std::size_t j = 0; j < a.size(); ++j)
      EXPECT_NEAR(a[j], b[j], 16 * (q + 2) * kEps * scale) << "q=" << q << " j=" << j;
  }
}

// The gradient expansion in three parts and two steps (as a block of the device computes it)
// equals the one-thread build bit for bit.
TEST(MultipoleLocal, GradientExpansionInPartsEqualsOneThread) {
  std::mt19937 gen(4);
  for (int q : {1, 2, 7, 12}) {
    const std::vector<double> L = uniform_values(gen, mp::local_size(q));
    std::vector<double> one(mp::local_gradient_expansion_size(q), -7.0), parts = one;
    mp::local_gradient_expansion(q, L.data(), one.data());
    std::vector<double> scratch(mp::local_gradient_scratch_size(q));
    for (int step = 0; step < 2; ++step)
      for (int part = 0; part < 3; ++part)
        mp::local_gradient_expansion_into(q, L.data(), parts.data(), scratch.data(), part, 3, step);
    EXPECT_EQ(one, parts) << "q=" << q;
  }
}
