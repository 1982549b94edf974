// Cores: q(rho) against quadrature of the vorticity profile, F and F'/r against finite differences
// and long-double closed forms, continuity where the series hand over, and limits at r = 0.

#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <limits>

#include "support/core_params.hpp"
#include "support/reference.hpp"
#include "vortex/math/core_function.hpp"
#include "vortex/options.hpp"

namespace vortex {
namespace {

using testing::core_fraction_ld;
using testing::core_vorticity;

class CoreTest : public ::testing::TestWithParam<Core> {};

TEST_P(CoreTest, FractionMatchesQuadratureOfVorticity) {
  const Core core = GetParam();
  for (double rho : {0.05, 0.3, 0.9, 1.0, 1.7, 2.5, 4.0}) {
    const double integral = boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
        [&](double t) { return 4 * M_PI * t * t * static_cast<double>(core_vorticity(core, t)); },
        0.0, rho, 4);
    EXPECT_NEAR(core_fraction(core, rho), integral, 1e-13 + 1e-12 * integral) << "rho = " << rho;
  }
  // The whole vorticity of the core integrates to one.
  const double total = boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
      [&](double t) { return 4 * M_PI * t * t * static_cast<double>(core_vorticity(core, t)); },
      0.0, std::numeric_limits<double>::infinity(), 15, 1e-12);
  EXPECT_NEAR(total, 1.0, 1e-9);
}

TEST_P(CoreTest, FactorsMatchClosedFormInLongDouble) {
  const Core core = GetParam();
  const double sigma = 0.37;
  // Below rho ~ 0.05 the closed forms cancel in long double too; SmallRadiusSeries covers that
  // range.
  for (double rho = 0.05; rho < 12; rho *= 1.13) {
    const double r = rho * sigma;
    const CoreFactors<double> k = core_factors<double>(core, r * r, 1 / sigma);
    const long double q = core_fraction_ld(core, rho);
    const long double F = q / ((long double)r * r * r);
    // F'(r) = q'(rho)/(sigma r^3) - 3 q / r^4 with q' = 4 pi rho^2 zeta.
    const long double dq = 4.0L * M_PI * rho * rho * core_vorticity(core, rho);
    const long double dF_over_r = (dq / (sigma * (long double)r * r * r) - 3 * q / powl(r, 4)) / r;
    EXPECT_NEAR(k.F, (double)F, 2e-13 * std::abs((double)F)) << "rho = " << rho;
    // F'/r is a difference of near-equal terms in the reference itself below rho ~ 1e-2.
    EXPECT_NEAR(k.dF_over_r, (double)dF_over_r, 5e-12 * std::abs((double)dF_over_r))
        << "rho = " << rho;
  }
}

TEST_P(CoreTest, SmallRadiusSeriesMatchesQuadrature) {
  // q from quadrature of the vorticity does not cancel at small rho: F sigma^3 rho^3 = q.
  const Core core = GetParam();
  for (double rho = 1e-3; rho < 0.6; rho *= 1.5) {
    const double q = boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
        [&](double t) { return 4 * M_PI * t * t * static_cast<double>(core_vorticity(core, t)); },
        0.0, rho, 2);  // smooth on [0, rho]: the 61-point rule is exact to rounding
    const CoreFactors<double> k = core_factors<double>(core, rho * rho, 1.0);
    EXPECT_NEAR(k.F * rho * rho * rho, q, 1e-13 * q) << "rho = " << rho;
  }
}

TEST_P(CoreTest, DerivativeMatchesCentralDifference) {
  const Core core = GetParam();
  const double sigma = 0.8;
  for (double r : {0.01, 0.2, 0.5, 0.79, 1.3, 2.0, 3.5}) {
    const double h = 1e-5 * r;
    const double Fp = core_factors<double>(core, (r + h) * (r + h), 1 / sigma).F;
    const double Fm = core_factors<double>(core, (r - h) * (r - h), 1 / sigma).F;
    const double fd = (Fp - Fm) / (2 * h) / r;
    const CoreFactors<double> k = core_factors<double>(core, r * r, 1 / sigma);
    // Truncation O(h^2) plus rounding of the difference, eps F / h, divided by r.
    const double rounding = 50 * std::numeric_limits<double>::epsilon() * std::abs(k.F) / (h * r);
    EXPECT_NEAR(k.dF_over_r, fd, 1e-7 * std::abs(k.dF_over_r) + rounding) << "r = " << r;
  }
}

TEST_P(CoreTest, FiniteAndContinuousAtSmallRadius) {
  const Core core = GetParam();
  const double sigma = 0.5, inv = 1 / sigma;
  const CoreFactors<double> at0 = core_factors<double>(core, 0.0, inv);
  EXPECT_TRUE(std::isfinite(at0.F));
  EXPECT_TRUE(std::isfinite(at0.dF_over_r));
  // F(0) = f(0)/sigma^3 with f(0) = lim q/rho^3 = (4 pi/3) zeta(0).
  const double f0 = 4 * M_PI / 3 * static_cast<double>(core_vorticity(core, 0));
  EXPECT_NEAR(at0.F * sigma * sigma * sigma, f0, 1e-14);
  // Sweep through the hand-over between series and closed forms: no jumps beyond rounding.
  double prev_F = at0.F, prev_G = at0.dF_over_r;
  for (double rho = 1e-3; rho < 1.5; rho += 1e-3) {
    const CoreFactors<double> k = core_factors<double>(core, rho * rho * sigma * sigma, inv);
    EXPECT_LT(std::abs(k.F - prev_F), 1e-2 * std::abs(at0.F)) << "rho = " << rho;
    EXPECT_LT(std::abs(k.dF_over_r - prev_G), 2e-2 * std::abs(at0.F) / (sigma * sigma) + 1e-12)
        << "rho = " << rho;
    prev_F = k.F;
    prev_G = k.dF_over_r;
  }
}

TEST_P(CoreTest, FloatAgreesWithDouble) {
  const Core core = GetParam();
  for (double rho : {0.0, 0.1, 0.49, 0.51, 1.0, 2.0, 5.0}) {
    const CoreFactors<double> d = core_factors<double>(core, rho * rho, 1.0);
    const CoreFactors<float> f = core_factors<float>(core, float(rho * rho), 1.0f);
    EXPECT_NEAR(f.F, d.F, 2e-6 * std::abs(d.F) + 1e-7);
    EXPECT_NEAR(f.dF_over_r, d.dF_over_r, 2e-5 * std::abs(d.dF_over_r) + 1e-6);
  }
}

// f and h of a core far from its centre, in long double: the singular kernel's 1/rho^3 and
// -3/rho^5 times the core's algebraic correction (exactly 1 for the exponential and Gaussian cores,
// whose exponentials are below long-double rounding at rho >= 10).
CoreShape<long double> far_shape(Core core, long double rho) {
  const long double e = 1 / (rho * rho);  // 1/rho^2
  const long double f = 1 / (rho * rho * rho), h = -3 * f * e;
  switch (core) {
    case Core::RosenheadMoore:
      return {f * powl(1 + e, -1.5L), h * powl(1 + e, -2.5L)};
    case Core::WinckelmansLeonard:
      return {f * (1 + 2.5L * e) * powl(1 + e, -2.5L), h * (1 + 3.5L * e) * powl(1 + e, -3.5L)};
    default:
      return {f, h};
  }
}

// From r/sigma = 10 to where rho^5 leaves the range of T, F and F'/r are the closed form to
// rounding: a clamped exponential must not leave a residue once 1/rho^3 falls below it.
template <class T>
void expect_far_field_is_closed_form(Core core, double rho_max, double tolerance) {
  for (double rho = 10; rho <= rho_max; rho *= 1.7) {
    const CoreFactors<T> k = core_factors<T>(core, T(rho) * T(rho), T(1));
    const long double r = static_cast<T>(rho);
    const CoreShape<long double> want = far_shape(core, r);
    EXPECT_NEAR(k.F / want.f, 1.0L, tolerance) << "rho = " << rho;
    EXPECT_NEAR(k.dF_over_r / want.h, 1.0L, tolerance) << "rho = " << rho;
  }
}

TEST_P(CoreTest, FarFromTheCoreIsTheClosedFormInDouble) {
  expect_far_field_is_closed_form<double>(GetParam(), 1e30, 8e-16);
}

TEST_P(CoreTest, FarFromTheCoreIsTheClosedFormInFloat) {
  expect_far_field_is_closed_form<float>(GetParam(), 1e7, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(AllRegularCores, CoreTest, ::testing::ValuesIn(testing::kRegularCores),
                         testing::CoreName());

TEST(SingularCore, FarFieldIsTheInverseCube) {
  expect_far_field_is_closed_form<double>(Core::Singular, 1e30, 8e-16);
  expect_far_field_is_closed_form<float>(Core::Singular, 1e7, 1e-6);
}

TEST(SingularCore, IsTheInverseCubeAndZeroAtTheOrigin) {
  const CoreFactors<double> k = core_factors<double>(Core::Singular, 4.0, 1.0);
  EXPECT_DOUBLE_EQ(k.F, 1.0 / 8.0);
  EXPECT_DOUBLE_EQ(k.dF_over_r, -3.0 / 32.0);
  const CoreFactors<double> z = core_factors<double>(Core::Singular, 0.0, 1.0);
  EXPECT_EQ(z.F, 0.0);
  EXPECT_EQ(z.dF_over_r, 0.0);
}

}  // namespace
}  // namespace vortex
