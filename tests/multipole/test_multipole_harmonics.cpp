// Real solid harmonics and their ladder relations: values against the Legendre definition and the
// closed forms, exact values on the z axis, the Laplace expansion, and every derivative identity
// against finite differences (random points, points on the z axis above and below the center, and
// the center itself for regular harmonics).

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/special_functions/legendre.hpp>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "vortex/multipole/ladder.hpp"
#include "vortex/multipole/m2p.hpp"
#include "vortex/multipole/solid_harmonics.hpp"

namespace mp = vortex::multipole;
using LD = long double;

namespace {

struct Point {
  double x, y, z;
};

// Random points in a shell 0.4 < r < 1.6, plus points on the z axis above and below the origin.
std::vector<Point> test_points(unsigned seed, int random_count) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Point> pts;
  while (static_cast<int>(pts.size()) < random_count) {
    const Point q{u(gen), u(gen), u(gen)};
    const double r = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    if (r > 0.4 && r < 1.6) pts.push_back(q);
  }
  pts.push_back({0, 0, 0.7});
  pts.push_back({0, 0, -1.3});
  pts.push_back({1e-9, -2e-9, 0.9});  // next to the axis
  return pts;
}

template <class T>
std::complex<T> harmonic(const T* X, int n, int m) {
  return {X[mp::cos_index(n, m)], m > 0 ? X[mp::sin_index(n, m)] : T(0)};
}

LD factorial(int n) {
  LD f = 1;
  for (int k = 2; k <= n; ++k) f *= k;
  return f;
}

// Largest magnitude of the harmonics of degree n in X.
template <class T>
T degree_max(const T* X, int n) {
  T s = 0;
  for (int k = n * n; k < (n + 1) * (n + 1); ++k) s = std::max(s, std::abs(X[k]));
  return s;
}

}  // namespace

TEST(MultipoleHarmonics, LayoutAndCounts) {
  EXPECT_EQ(mp::coefficient_count(0), 1);
  EXPECT_EQ(mp::coefficient_count(8), 81);
  for (int n = 0; n <= 5; ++n) {
    EXPECT_EQ(mp::cos_index(n, 0), n * n);
    EXPECT_EQ(mp::sin_index(n, n), (n + 1) * (n + 1) - 1);
    for (int m = 1; m <= n; ++m) EXPECT_EQ(mp::sin_index(n, m), mp::cos_index(n, n) + m);
  }
}

// R_n^m = r^n P_n^m(cos t) e^{i m phi}/(n+m)!,  I_n^m = (n-m)! P_n^m(cos t) e^{i m phi}/r^(n+1),
// P_n^m without the Condon-Shortley phase (boost includes it: multiply by (-1)^m). The recurrences
// lose about one rounding per step, so the tolerance is a few (n+1) eps of the degree's largest
// term.
TEST(MultipoleHarmonics, MatchLegendreDefinition) {
  constexpr int p = 16;
  const double eps = std::numeric_limits<double>::epsilon();
  std::vector<double> R(mp::coefficient_count(p)), I(mp::coefficient_count(p));
  std::vector<Point> pts = test_points(1, 8);
  // The angular reference loses digits near the axis (sin t from cos t); the axis is covered by
  // the closed forms below.
  pts.resize(8);
  for (const Point& q : pts) {
    mp::regular_harmonics(p, q.x, q.y, q.z, R.data());
    mp::irregular_harmonics(p, q.x, q.y, q.z, I.data());
    const double r = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
    const double ct = q.z / r, phi = std::atan2(q.y, q.x);
    for (int n = 0; n <= p; ++n) {
      std::vector<std::complex<double>> rr, ii;
      double rmax = 0, imax = 0;
      for (int m = 0; m <= n; ++m) {
        const double P = (m % 2 ? -1.0 : 1.0) * boost::math::legendre_p(n, m, ct);
        const std::complex<double> e = std::polar(1.0, m * phi);
        rr.push_back(double(std::pow(LD(r), n) / factorial(n + m)) * P * e);
        ii.push_back(double(factorial(n - m) / std::pow(LD(r), n + 1)) * P * e);
        rmax = std::max(rmax, std::abs(rr.back()));
        imax = std::max(imax, std::abs(ii.back()));
      }
      for (int m = 0; m <= n; ++m) {
        EXPECT_LE(std::abs(harmonic(R.data(), n, m) - rr[m]), 16 * (n + 1) * eps * rmax)
            << "R n=" << n << " m=" << m << " at " << q.x << "," << q.y << "," << q.z;
        EXPECT_LE(std::abs(harmonic(I.data(), n, m) - ii[m]), 16 * (n + 1) * eps * imax)
            << "I n=" << n << " m=" << m << " at " << q.x << "," << q.y << "," << q.z;
      }
    }
  }
}

// Diagonal closed forms R_m^m = (x+iy)^m/(2^m m!), I_m^m = (2m-1)!! (x+iy)^m/r^(2m+1).
TEST(MultipoleHarmonics, DiagonalClosedForms) {
  constexpr int p = 16;
  std::vector<LD> R(mp::coefficient_count(p)), I(mp::coefficient_count(p));
  const LD eps = std::numeric_limits<LD>::epsilon();
  for (const Point& q : test_points(2, 5)) {
    const LD x = q.x, y = q.y, z = q.z, r2 = x * x + y * y + z * z, r = std::sqrt(r2);
    mp::regular_harmonics<LD>(p, x, y, z, R.data());
    mp::irregular_harmonics<LD>(p, x, y, z, I.data());
    std::complex<LD> w(1), xy(x, y);
    LD dfact = 1;  // (2m-1)!!
    for (int m = 0; m <= p; ++m) {
      if (m > 0) w *= xy, dfact *= 2 * m - 1;
      const std::complex<LD> rm = w / (std::pow(LD(2), m) * factorial(m));
      const std::complex<LD> im = dfact * w / std::pow(r, 2 * m + 1);
      EXPECT_LE(std::abs(harmonic(R.data(), m, m) - rm),
                8 * (m + 1) * eps * std::abs(rm) + 1e-300L);
      EXPECT_LE(std::abs(harmonic(I.data(), m, m) - im),
                8 * (m + 1) * eps * std::abs(im) + 1e-300L);
    }
  }
}

// On the z axis only m = 0 survives: R_n^0 = z^n/n!, I_n^0 = n! sign(z)^n/|z|^(n+1), and every
// m >= 1 term is exactly zero. At the center R = (1, 0, 0, ...).
TEST(MultipoleHarmonics, ExactOnTheAxisAndAtTheCenter) {
  constexpr int p = 16;
  const double eps = std::numeric_limits<double>::epsilon();
  std::vector<double> R(mp::coefficient_count(p)), I(mp::coefficient_count(p));
  for (double z : {0.7, -1.3, 2.0, -0.25}) {
    mp::regular_harmonics(p, 0.0, 0.0, z, R.data());
    mp::irregular_harmonics(p, 0.0, 0.0, z, I.data());
    for (int n = 0; n <= p; ++n) {
      const double rn = double(std::pow(LD(z), n) / factorial(n));
      const double in =
          double(factorial(n) * std::pow(LD(z < 0 ? -1 : 1), n) / std::pow(LD(std::abs(z)), n + 1));
      EXPECT_NEAR(R[mp::cos_index(n, 0)], rn, 4 * (n + 1) * eps * std::abs(rn));
      EXPECT_NEAR(I[mp::cos_index(n, 0)], in, 4 * (n + 1) * eps * std::abs(in));
      for (int m = 1; m <= n; ++m) {
        EXPECT_EQ(R[mp::cos_index(n, m)], 0.0);
        EXPECT_EQ(R[mp::sin_index(n, m)], 0.0);
        EXPECT_EQ(I[mp::cos_index(n, m)], 0.0);
        EXPECT_EQ(I[mp::sin_index(n, m)], 0.0);
      }
    }
  }
  mp::regular_harmonics(p, 0.0, 0.0, 0.0, R.data());
  EXPECT_EQ(R[0], 1.0);
  for (int k = 1; k < mp::coefficient_count(p); ++k) EXPECT_EQ(R[k], 0.0);
}

// 1/|x - y| = sum_n [R_n^0 I_n^0 + 2 sum_{m>0} (Rc Ic + Rs Is)](y; x), truncated after degree p
// with error at most (|y|/|x|)^(p+1) / (|x| - |y|).
TEST(MultipoleHarmonics, LaplaceExpansion) {
  constexpr int p = 16;
  std::vector<double> R(mp::coefficient_count(p)), I(mp::coefficient_count(p));
  const std::vector<Point> pts = test_points(3, 6);
  for (const Point& x : pts) {
    for (const Point& y0 : pts) {
      const double rx = std::sqrt(x.x * x.x + x.y * x.y + x.z * x.z);
      const double ry0 = std::sqrt(y0.x * y0.x + y0.y * y0.y + y0.z * y0.z);
      const double s = 0.4 * rx / ry0;  // |y| = 0.4 |x|
      const Point y{s * y0.x, s * y0.y, s * y0.z};
      mp::regular_harmonics(p, y.x, y.y, y.z, R.data());
      mp::irregular_harmonics(p, x.x, x.y, x.z, I.data());
      double sum = 0;
      for (int n = 0; n <= p; ++n) {
        sum += R[mp::cos_index(n, 0)] * I[mp::cos_index(n, 0)];
        for (int m = 1; m <= n; ++m)
          sum += 2 * (R[mp::cos_index(n, m)] * I[mp::cos_index(n, m)] +
                      R[mp::sin_index(n, m)] * I[mp::sin_index(n, m)]);
      }
      const double exact = 1 / std::sqrt((x.x - y.x) * (x.x - y.x) + (x.y - y.y) * (x.y - y.y) +
                                         (x.z - y.z) * (x.z - y.z));
      const double bound = std::pow(0.4, p + 1) / (rx - 0.4 * rx);
      EXPECT_LE(std::abs(sum - exact), bound + 1e-14 * exact);
    }
  }
}

// The row-by-row generator used by M2P gives the same values as irregular_harmonics.
TEST(MultipoleHarmonics, RowGeneratorMatchesReference) {
  constexpr int Q = 14;
  const double eps = std::numeric_limits<double>::epsilon();
  std::vector<double> I(mp::coefficient_count(Q)), H(mp::coefficient_count(Q));
  for (const Point& q : test_points(4, 6)) {
    mp::irregular_harmonics(Q, q.x, q.y, q.z, I.data());
    const mp::IrregularRows<double> rows(q.x, q.y, q.z, H.data());
    for (int n = 2; n <= Q; ++n) rows.row(n, H.data());
    for (int n = 0; n <= Q; ++n) {
      const double scale = degree_max(I.data(), n);
      for (int k = n * n; k < (n + 1) * (n + 1); ++k)
        EXPECT_NEAR(H[k], I[k], 4 * (n + 1) * eps * scale) << "k=" << k;
    }
  }
}

// A row shared by the lanes of a warp (row_part, parts lanes each taking every parts-th entry)
// is the row bit for bit.
TEST(MultipoleHarmonics, RowPartsEqualTheRow) {
  constexpr int Q = 14;
  std::vector<double> I(mp::coefficient_count(Q)), H(mp::coefficient_count(Q));
  for (const Point& q : test_points(4, 7)) {
    const mp::IrregularRows<double> rows(q.x, q.y, q.z, I.data());
    for (int n = 2; n <= Q; ++n) rows.row(n, I.data());
    for (int parts : {1, 3, 32}) {
      std::fill(H.begin(), H.end(), -1.0);
      const mp::IrregularRows<double> split(q.x, q.y, q.z, H.data());
      for (int n = 2; n <= Q; ++n)
        for (int part = 0; part < parts; ++part) split.row_part(n, H.data(), part, parts);
      EXPECT_EQ(H, I) << parts << " parts";
    }
  }
}

namespace {

// Fourth-order central difference of every harmonic along axis b at q, in long double:
//   f'(x) = [f(x-2h) - 8 f(x-h) + 8 f(x+h) - f(x+2h)]/(12 h) - h^4/30 f^(5)(xi).
// Also returns, per degree, the largest magnitude met on the stencil.
template <class Fn>
std::vector<LD> central_difference(int p, const Point& q, int b, LD h, Fn&& eval,
                                   std::vector<LD>& degree_scale) {
  const int count = mp::coefficient_count(p);
  std::vector<LD> out(count, 0), X(count);
  degree_scale.assign(p + 1, 0);
  const LD w[4] = {1, -8, 8, -1};
  const int off[4] = {-2, -1, 1, 2};
  for (int s = 0; s < 4; ++s) {
    LD x = q.x, y = q.y, z = q.z;
    (b == 0 ? x : b == 1 ? y : z) += off[s] * h;
    eval(x, y, z, X.data());
    for (int k = 0; k < count; ++k) out[k] += w[s] * X[k];
    for (int n = 0; n <= p; ++n)
      degree_scale[n] = std::max(degree_scale[n], degree_max(X.data(), n));
  }
  for (LD& v : out) v /= 12 * h;
  return out;
}

// Checks D[b] (derivatives of degrees 0..p) against finite differences. By the ladder relations a
// derivative of a degree-n harmonic is bounded by the largest harmonic of the neighbour degree, so
// the fifth derivative in the truncation term is bounded by the largest harmonic of degree n+5s on
// the stencil (s = +1 irregular, -1 regular; zero below degree 0); rounding adds about
// (n+6) eps/h times the degree's own scale. Allowance 2 on each.
template <class Fn>
void check_ladder(int p, int s, const Point& q, const LD* const D[3], Fn&& eval) {
  const LD eps = std::numeric_limits<LD>::epsilon();
  const LD r = std::sqrt(LD(q.x) * q.x + LD(q.y) * q.y + LD(q.z) * q.z);
  const LD h = 1e-3L * (r > 0 ? r : 1);
  std::vector<LD> scale;
  for (int b = 0; b < 3; ++b) {
    const std::vector<LD> fd = central_difference(p + 5, q, b, h, eval, scale);
    for (int n = 0; n <= p; ++n) {
      const int n5 = n + 5 * s;
      const LD b5 = n5 >= 0 ? scale[n5] : 0;
      const LD tol = 2 * std::pow(h, 4) / 30 * b5 + 2 * (n + 6) * eps / h * scale[n];
      for (int k = n * n; k < (n + 1) * (n + 1); ++k)
        EXPECT_LE(std::abs(D[b][k] - fd[k]), tol)
            << "axis " << b << " k=" << k << " (n=" << n << ") at " << q.x << "," << q.y << ","
            << q.z << " value " << double(D[b][k]);
    }
  }
}

}  // namespace

TEST(MultipoleHarmonics, IrregularLadderMatchesFiniteDifferences) {
  constexpr int p = 12;
  const int count = mp::coefficient_count(p + 5);
  std::vector<LD> X(count), Dx(count), Dy(count), Dz(count);
  const LD* D[3] = {Dx.data(), Dy.data(), Dz.data()};
  auto eval = [&](LD x, LD y, LD z, LD* out) { mp::irregular_harmonics<LD>(p + 5, x, y, z, out); };
  for (const Point& q : test_points(5, 6)) {
    eval(q.x, q.y, q.z, X.data());
    mp::irregular_derivatives<LD>(p, X.data(), Dx.data(), Dy.data(), Dz.data());
    check_ladder(p, +1, q, D, eval);
  }
}

TEST(MultipoleHarmonics, RegularLadderMatchesFiniteDifferences) {
  constexpr int p = 12;
  const int count = mp::coefficient_count(p + 5);
  std::vector<LD> X(count), Dx(count), Dy(count), Dz(count);
  const LD* D[3] = {Dx.data(), Dy.data(), Dz.data()};
  auto eval = [&](LD x, LD y, LD z, LD* out) { mp::regular_harmonics<LD>(p + 5, x, y, z, out); };
  std::vector<Point> pts = test_points(6, 6);
  pts.push_back({0, 0, 0});  // the expansion center
  for (const Point& q : pts) {
    eval(q.x, q.y, q.z, X.data());
    mp::regular_derivatives<LD>(p, X.data(), Dx.data(), Dy.data(), Dz.data());
    check_ladder(p, -1, q, D, eval);
  }
}

// The coefficient ladders are the transposes of the harmonic ladders:
//   sum_k B_b,k X_k = sum_k A_k d_b X_k   for any coefficients A.
TEST(MultipoleHarmonics, CoefficientLaddersAreTransposes) {
  constexpr int p = 10;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<double> A(mp::coefficient_count(p));
  for (double& a : A) a = u(gen);
  const int c1 = mp::coefficient_count(p + 1);
  std::vector<double> X(c1), Dx(c1), Dy(c1), Dz(c1), Bx(c1), By(c1), Bz(c1);
  for (int regular = 0; regular < 2; ++regular) {
    if (regular)
      mp::regular_coefficient_derivatives(p, A.data(), Bx.data(), By.data(), Bz.data());
    else
      mp::irregular_coefficient_derivatives(p, A.data(), Bx.data(), By.data(), Bz.data());
    for (const Point& q : test_points(8, 4)) {
      if (regular) {
        mp::regular_harmonics(p, q.x, q.y, q.z, X.data());
        mp::regular_derivatives(p, X.data(), Dx.data(), Dy.data(), Dz.data());
      } else {
        mp::irregular_harmonics(p + 1, q.x, q.y, q.z, X.data());
        mp::irregular_derivatives(p, X.data(), Dx.data(), Dy.data(), Dz.data());
      }
      const double* D[3] = {Dx.data(), Dy.data(), Dz.data()};
      const double* B[3] = {Bx.data(), By.data(), Bz.data()};
      const int out_count = mp::coefficient_count(regular ? p - 1 : p + 1);
      for (int b = 0; b < 3; ++b) {
        double lhs = 0, rhs = 0, scale = 0;
        for (int k = 0; k < out_count; ++k) lhs += B[b][k] * X[k];
        for (int k = 0; k < mp::coefficient_count(p); ++k) {
          rhs += A[k] * D[b][k];
          scale += std::abs(A[k] * D[b][k]);
        }
        EXPECT_NEAR(lhs, rhs, 1e-14 * scale) << (regular ? "regular" : "irregular") << " b=" << b;
      }
    }
  }
}
