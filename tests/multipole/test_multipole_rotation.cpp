// M2L by rotation (m2l_rotation.hpp) against the direct M2L summed in long double: the rotation
// matrices turn the harmonics, and the rotated translation gives the direct sum's local expansion
// to rounding, along the axes, off them, at every order, for lists of any length (SIMD lanes
// partly filled) and at lengths far from one.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "vortex/multipole/m2l.hpp"
#include "vortex/multipole/m2l_packed_w.hpp"
#include "vortex/multipole/m2l_rotation.hpp"

namespace mp = vortex::multipole;
namespace rot = vortex::multipole::rotation;
using Vec3 = std::array<double, 3>;

namespace {

const double kEps = std::numeric_limits<double>::epsilon();

// y = W x (or W^T x) on degree n from the stored rows.
std::vector<double> apply(const rot::Tables& t, int n, const std::vector<double>& x,
                          bool transpose) {
  const int* start = transpose ? t.wt_start : t.w_start;
  const rot::Entry<double>* entry = transpose ? t.wt_double : t.w_double;
  std::vector<double> y(2 * n + 1, 0.0);
  for (int r = 0; r < 2 * n + 1; ++r)
    for (int k = start[n * n + r]; k < start[n * n + r + 1]; ++k)
      y[r] += entry[k].value * x[entry[k].column - n * n];
  return y;
}

// The direct M2L of several translations, summed in long double.
std::vector<long double> direct_sum(int p, int q, const std::vector<Vec3>& t,
                                    const std::vector<std::vector<double>>& M) {
  std::vector<long double> L(mp::local_size(q), 0.0L);
  for (std::size_t i = 0; i < t.size(); ++i) {
    std::vector<long double> Ml(M[i].begin(), M[i].end());
    mp::detail::m2l_terms<long double>(p, q, t[i][0], t[i][1], t[i][2], Ml.data(), L.data());
  }
  return L;
}

std::vector<double> rotated_sum(int p, int q, const std::vector<Vec3>& t,
                                const std::vector<std::vector<double>>& M) {
  std::vector<double> L(mp::local_size(q), 0.0);
  mp::m2l_sum(
      p, q, static_cast<int>(t.size()),
      [&](int i, double* ti) {
        for (int d = 0; d < 3; ++d) ti[d] = t[i][d];
        return M[i].data();
      },
      L.data());
  return L;
}

// Largest difference of each degree of the three components, in the Schmidt-normalized
// coefficients (L / nu: the ones the harmonics of unit size multiply), over the degree's largest.
double normalized_error(int q, const std::vector<double>& got,
                        const std::vector<long double>& ref) {
  const rot::Tables& tab = mp::m2l_rotation_tables();
  const int count = mp::coefficient_count(q);
  double worst = 0;
  for (int e = 0; e < 3; ++e)
    for (int k = 0; k <= q; ++k) {
      long double largest = 0, diff = 0;
      for (int j = k * k; j < (k + 1) * (k + 1); ++j) {
        const long double r = ref[e * count + j] / tab.nu[j];
        largest = std::max(largest, std::fabs(r));
        diff = std::max(diff, std::fabs(got[e * count + j] / tab.nu[j] - r));
      }
      if (largest > 0) worst = std::max(worst, static_cast<double>(diff / largest));
    }
  return worst;
}

// Moments of a box of radius a: degree n of size a^n times a random factor in [-1, 1].
std::vector<double> moments(std::mt19937& gen, int p, double a) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> M(mp::multipole_size(p));
  for (int e = 0; e < 3; ++e)
    for (int n = 0; n <= p; ++n)
      for (int j = n * n; j < (n + 1) * (n + 1); ++j)
        M[e * mp::coefficient_count(p) + j] =
            u(gen) * std::pow(a, n) / mp::m2l_rotation_tables().nu[j];
  return M;
}

}  // namespace

TEST(MultipoleRotation, TheTablesTurnTheHarmonicsOfEveryDegree) {
  const rot::Tables& tab = mp::m2l_rotation_tables();
  // The float entries (a device's) are the double ones rounded, in the same places.
  ASSERT_EQ(tab.w_start[rot::Tables::kRows], tab.wt_start[rot::Tables::kRows]);
  for (int k = 0; k < tab.w_start[rot::Tables::kRows]; ++k) {
    EXPECT_EQ(tab.w_float[k].value, static_cast<float>(tab.w_double[k].value)) << k;
    EXPECT_EQ(tab.w_float[k].column, tab.w_double[k].column) << k;
    EXPECT_EQ(tab.wt_float[k].value, static_cast<float>(tab.wt_double[k].value)) << k;
    EXPECT_EQ(tab.wt_float[k].column, tab.wt_double[k].column) << k;
  }
  std::mt19937 gen(11);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 5; ++trial) {
    Vec3 u = {g(gen), g(gen), g(gen)};
    const double r = std::hypot(u[0], u[1], u[2]);
    for (double& c : u) c /= r;
    const int Q = rot::kMaxDegree;
    std::vector<double> R(mp::coefficient_count(Q)), RW(mp::coefficient_count(Q));
    mp::regular_harmonics(Q, u[0], u[1], u[2], R.data());
    mp::regular_harmonics(Q, u[0], u[2], -u[1], RW.data());  // R_x(-90 deg) u
    for (int n = 0; n <= Q; ++n) {
      std::vector<double> x(2 * n + 1), want(2 * n + 1);
      for (int j = 0; j < 2 * n + 1; ++j)
        x[j] = R[n * n + j] * tab.nu[n * n + j], want[j] = RW[n * n + j] * tab.nu[n * n + j];
      const std::vector<double> got = apply(tab, n, x, false);
      const std::vector<double> back = apply(tab, n, got, true);
      for (int j = 0; j < 2 * n + 1; ++j) {
        EXPECT_NEAR(got[j], want[j], 8 * (n + 1) * kEps) << "n=" << n << " j=" << j;
        EXPECT_NEAR(back[j], x[j], 8 * (n + 1) * kEps) << "n=" << n << " j=" << j;
      }
    }
  }
}

// The packed W of a device's unrolled products (pack_w over the pattern w_nonzero): every stored
// entry lies in the pattern, and the packed products, summed in the device's order, equal the
// stored rows' products on every degree, both ways, to rounding.
TEST(MultipoleRotation, ThePackedPatternHoldsEveryEntry) {
  const rot::Tables& tab = mp::m2l_rotation_tables();
  std::vector<double> packed(rot::packed_offset(rot::kMaxDegree + 1));
  ASSERT_NO_THROW(mp::detail::pack_w(tab, packed.data()));
  EXPECT_GE(static_cast<int>(packed.size()), tab.w_start[rot::Tables::kRows]);
  EXPECT_LE(static_cast<int>(packed.size()), rot::entry_bound(rot::kMaxDegree + 1));
  std::mt19937 gen(12);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n = 0; n <= rot::kMaxDegree; ++n) {
    const int d = 2 * n + 1;
    std::vector<double> x(d), y(d, 0.0), yt(d, 0.0);
    for (double& v : x) v = u(gen);
    for (int r = 0, k = rot::packed_offset(n); r < d; ++r)
      for (int c = 0; c < d; ++c)
        if (rot::w_nonzero(n, r, c)) {
          y[r] += packed[k] * x[c];
          yt[c] += packed[k++] * x[r];
        }
    const std::vector<double> want = apply(tab, n, x, false), want_t = apply(tab, n, x, true);
    // Equal but for the contraction of products into fused multiply-adds (the compiler's).
    for (int j = 0; j < d; ++j) {
      EXPECT_NEAR(y[j], want[j], 2 * d * kEps) << "n=" << n << " j=" << j;
      EXPECT_NEAR(yt[j], want_t[j], 2 * d * kEps) << "n=" << n << " j=" << j;
    }
  }
}

TEST(MultipoleRotation, M2lEqualsTheDirectSumAlongAndOffTheAxes) {
  std::mt19937 gen(3);
  const std::vector<Vec3> dirs = {{0, 0, 1},        {0, 0, -1},       {1, 0, 0},
                                  {0, -1, 0},       {1e-9, 0, 1},     {0, 1e-12, -1},
                                  {0.3, -0.5, 0.8}, {-0.7, 0.2, -0.1}};
  for (int p = 0; p <= mp::kMaxOrder; ++p)
    for (int q : {p, std::min(p + 2, mp::kMaxLocalOrder), std::max(p - 3, 0)}) {
      double worst = 0;
      for (const Vec3& d : dirs) {
        const double len = 3 / std::hypot(d[0], d[1], d[2]);
        const std::vector<Vec3> t = {{len * d[0], len * d[1], len * d[2]}};
        const std::vector<std::vector<double>> M = {moments(gen, p, 1.0)};
        worst =
            std::max(worst, normalized_error(q, rotated_sum(p, q, t, M), direct_sum(p, q, t, M)));
      }
      EXPECT_LE(worst, 16 * (p + q + 2) * kEps) << "p=" << p << " q=" << q;
    }
}

TEST(MultipoleRotation, ListsOfEveryLengthFillTheLanesInOrder) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  const int p = 9, q = 11;
  for (int count : {0, 1, 2, 3, 7, 8, 9, 17}) {
    std::vector<Vec3> t;
    std::vector<std::vector<double>> M;
    for (int i = 0; i < count; ++i) {
      Vec3 d = {u(gen), u(gen), u(gen)};
      const double s = 2.5 / std::hypot(d[0], d[1], d[2]);
      t.push_back({s * d[0], s * d[1], s * d[2]});
      M.push_back(moments(gen, p, 1.0));
    }
    const std::vector<double> got = rotated_sum(p, q, t, M);
    if (count == 0) {
      for (double v : got) EXPECT_EQ(v, 0.0);
      continue;
    }
    EXPECT_LE(normalized_error(q, got, direct_sum(p, q, t, M)), 16 * (p + q + 2) * kEps)
        << "count=" << count;
  }
}

TEST(MultipoleRotation, LengthsFarFromOneKeepTheRelativeAccuracy) {
  std::mt19937 gen(5);
  const int p = 12, q = 14;
  for (double len : {1e-8, 1e-3, 1e3, 1e8}) {
    const std::vector<Vec3> t = {{0.48 * len, -0.6 * len, 0.64 * len}};
    const std::vector<std::vector<double>> M = {moments(gen, p, 0.4 * len)};
    EXPECT_LE(normalized_error(q, rotated_sum(p, q, t, M), direct_sum(p, q, t, M)),
              16 * (p + q + 2) * kEps)
        << "length " << len;
  }
}

TEST(MultipoleRotation, OrdersOutOfRangeAreRefused) {
  std::vector<double> L(mp::local_size(4));
  const auto none = [](int, double*) -> const double* { return nullptr; };
  EXPECT_THROW(mp::m2l_sum(mp::kMaxOrder + 1, 4, 0, none, L.data()), std::invalid_argument);
  EXPECT_THROW(mp::m2l_sum(4, mp::kMaxLocalOrder + 1, 0, none, L.data()), std::invalid_argument);
}
