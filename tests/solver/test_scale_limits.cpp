// Length scales: the velocity is scale-covariant (x -> s x, sigma -> s sigma, Gamma -> s^2 Gamma
// leave u unchanged and divide the gradient by s), and holds across the accepted range of lengths,
// 1e-100 to 1e100; beyond it (where 1/sigma^3 overflows or Gamma/sigma^3 underflows) inputs are
// rejected with a message naming the limit instead of giving NaN or 0.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/reference.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

SolverOptions cpu(Method method) {
  SolverOptions o;
  o.backend = Backend::Cpu;
  o.method = method;
  return o;
}

TEST(ScaleLimits, ResultsAreScaleCovariantAcrossTheAcceptedRange) {
  const ParticleSet p = testing::random_cube(400, 12);
  const VelocityField ref = Solver(cpu(Method::Direct)).evaluate(p, true);
  for (Method method : {Method::Direct, Method::Tree}) {
    Solver solver(cpu(method));
    // Powers of two: the scaled inputs are exact, so the direct sum must agree to rounding, the
    // treecode within its expansion error.
    const double tolerance = method == Method::Direct ? 1e-12 : 1e-4;
    for (double s : {std::ldexp(1.0, -320), std::ldexp(1.0, 320)}) {
      SCOPED_TRACE(to_string(method) + ", scale 2^" + std::to_string(std::ilogb(s)));
      const VelocityField f = solver.evaluate(testing::scaled(p, s), true);
      VelocityField back = f;
      for (auto& c : back.du)
        for (double& v : c) v *= s;
      EXPECT_LT(testing::relative_l2_velocity(f, ref), tolerance);
      EXPECT_LT(testing::relative_l2_gradient(back, ref), tolerance);
    }
  }
}

std::string error_of(const ParticleSet& p) {
  try {
    Solver(cpu(Method::Direct)).evaluate(p, false);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted";
  return "";
}

TEST(ScaleLimits, LengthsBeyondTheRangeAreRejected) {
  const ParticleSet p = testing::random_cube(20, 13);
  EXPECT_NE(error_of(testing::scaled(p, 1e-102)).find("sources sigma[0] = "), std::string::npos);
  EXPECT_NE(error_of(testing::scaled(p, 1e-102)).find("is below 1e-100"), std::string::npos);
  EXPECT_NE(error_of(testing::scaled(p, 1e102)).find("is beyond the supported range of lengths"),
            std::string::npos);
  ParticleSet wide = p;
  wide.sigma[1] = 1e101;
  EXPECT_NE(error_of(wide).find("sources sigma[1] = 1e+101 is above 1e+100"), std::string::npos);
  ParticleSet subnormal = p;
  subnormal.sigma[3] = 1e-310;
  EXPECT_NE(error_of(subnormal).find("sources sigma[3] = 1e-310 is below 1e-100"),
            std::string::npos);
  ParticleSet far = p;
  far.x[5] = -2e100;
  EXPECT_NE(error_of(far).find("sources x[5] = -2e+100 is beyond"), std::string::npos);
  ParticleSet weak = p;
  weak.gz[2] = 1e-300;
  EXPECT_NE(error_of(weak).find("sources gz[2] = 1e-300: circulation / sigma^3"),
            std::string::npos);
  Points targets;
  targets.push_back(0, 3e100, 0);
  try {
    Solver(cpu(Method::Direct)).evaluate(p, targets, false);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("targets y[0] = 3e+100 is beyond"), std::string::npos)
        << e.what();
  }
}

// A field beyond double's range (a strong singular particle seen from 1e-10 away) is an error that
// names the target and component, never an inf returned as a result.
TEST(ScaleLimits, AFieldBeyondDoublesRangeIsAnError) {
  ParticleSet p = testing::random_cube(300, 14);
  p.gz[7] = 1e280;  // Gamma / sigma^3 within the accepted range
  Points targets;
  targets.push_back(p.x[3], p.y[3], p.z[3]);
  targets.push_back(p.x[7] + 1e-10, p.y[7], p.z[7]);
  // In float the target is on the particle (1e-10 is below float's resolution): the pair is
  // infinite there, and the call is redone in double.
  for (Precision precision : {Precision::Double, Precision::Float})
    for (Method method : {Method::Direct, Method::Tree}) {
      SolverOptions o = cpu(method);
      o.core = Core::Singular;
      o.precision = precision;
      try {
        Solver(o).evaluate(p, targets, true);
        ADD_FAILURE() << to_string(method) << ", " << to_string(precision) << ": accepted";
      } catch (const std::overflow_error& e) {
        EXPECT_NE(std::string(e.what()).find("at target 1 is not finite"), std::string::npos)
            << e.what();
      }
    }
}

// Float cannot hold a core 1e-20 of the cloud's size (1/sigma^2 overflows it): Auto computes in
// double, and float asked for is done again in double rather than returning inf.
TEST(ScaleLimits, FloatThatCannotHoldTheFieldFallsBackToDouble) {
  ParticleSet p = testing::random_cube(300, 15);
  p.sigma[4] = 1e-20;
  p.gx[4] = p.gy[4] = p.gz[4] = 1e-30;
  const VelocityField ref = Solver(cpu(Method::Direct)).evaluate(p, true);
  for (Precision precision : {Precision::Auto, Precision::Float}) {
    SolverOptions o = cpu(Method::Tree);
    o.precision = precision;
    o.tolerance = 1e-3;  // where Auto would pick float for its rounding alone
    const VelocityField f = Solver(o).evaluate(p, true);
    EXPECT_EQ(f.stats.precision, "double") << to_string(precision);
    EXPECT_LT(testing::mean_relative_velocity(f, ref), 1e-3);
    EXPECT_LT(testing::mean_relative_gradient(f, ref), 1e-3);
  }
}

// Targets a million times the sources' size away: float's range would flush their gradient
// (about 1/d^3) to zero, so Auto computes in double.
TEST(ScaleLimits, FarTargetsAreComputedInDouble) {
  const ParticleSet p = testing::random_cube(300, 16);
  Points targets;
  for (double d : {1e7, 1e12, 1e50}) targets.push_back(d, 0.5, 0.5);
  SolverOptions o = cpu(Method::Tree);
  o.tolerance = 1e-3;
  const VelocityField f = Solver(o).evaluate(p, targets, true);
  EXPECT_EQ(f.stats.precision, "double");
  const VelocityField ref = Solver(cpu(Method::Direct)).evaluate(p, targets, true);
  EXPECT_LT(testing::mean_relative_velocity(f, ref), 1e-3);
  EXPECT_LT(testing::mean_relative_gradient(f, ref), 1e-3);
}

}  // namespace
}  // namespace vortex
