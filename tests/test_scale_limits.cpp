// Length scales: the velocity is scale-covariant (x -> s x, sigma -> s sigma, Gamma -> s^2 Gamma
// leave u unchanged and divide the gradient by s), and holds across the accepted range of lengths,
// 1e-100 to 1e100; beyond it (where 1/sigma^3 overflows or Gamma/sigma^3 underflows) inputs are
// rejected with a message naming the limit instead of giving NaN or 0.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "support/reference.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

ParticleSet scaled(ParticleSet p, double s) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.x[i] *= s;
    p.y[i] *= s;
    p.z[i] *= s;
    p.sigma[i] *= s;
    p.gx[i] *= s * s;
    p.gy[i] *= s * s;
    p.gz[i] *= s * s;
  }
  return p;
}

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
      const VelocityField f = solver.evaluate(scaled(p, s), true);
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
  EXPECT_NE(error_of(scaled(p, 1e-102)).find("sources sigma[0] = "), std::string::npos);
  EXPECT_NE(error_of(scaled(p, 1e-102)).find("is below 1e-100"), std::string::npos);
  EXPECT_NE(error_of(scaled(p, 1e102)).find("is beyond the supported range of lengths"),
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

}  // namespace
}  // namespace vortex
