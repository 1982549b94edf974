// The flow past a sphere is the same at every size: with the Reynolds number fixed and the time
// step, viscosity and spacing scaled with the radius, the sheet at t = 0+, the impulse and the drag
// of the first steps do not depend on the radius, and neither do the wall's closest points (no
// absolute length in the geometric code).

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "vortex/bodies/body_flow.hpp"
#include "vortex/bodies/forces.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/wall.hpp"

namespace vortex::bodies {
namespace {

struct Outcome {
  double impulse0 = 0;              // x impulse at t = 0+, over R^3
  std::vector<double> cd;           // per step
  std::vector<double> pressure_cd;  // per step: of the pressure from the shed vorticity
  std::vector<double> friction_cd;  // and of the skin friction
  std::vector<std::size_t> n;       // particles after each step
};

// Two steps of the sphere of radius R (frequency 4) at Re = U D / nu = 50 (U = 1), dt = 0.05 R / U,
// h = 0.2 R, on the CPU, the sheet's and particles' velocities by `method`.
Outcome run(double r, Method method, double gmres_tolerance) {
  const double U = 1;
  const Surface s = make_surface(sphere(4, r));
  BemOptions bem;
  bem.solver.backend = Backend::Cpu;
  bem.solver.method = method;
  bem.tolerance = gmres_tolerance;
  SolverOptions so;
  so.backend = Backend::Cpu;
  so.method = method;
  Solver solver(so);
  BodyFlowOptions o;
  o.nu = U * 2 * r / 50;
  o.spacing = 0.2 * r;
  o.control.merge_distance = 0.5;
  BodyFlow flow(s, bem, solver, o);
  ParticleSet p;
  flow.solve_sheet(p);
  Outcome out;
  Vec3 before = flow.impulse(p);
  out.impulse0 = before.x / (r * r * r);
  const double dt = 0.05 * r / U;
  for (int k = 0; k < 2; ++k) {
    const BodyStepStats stats = flow.step(p, dt);
    const Vec3 after = flow.impulse(p);
    out.pressure_cd.push_back(
        force_coefficients(stats.pressure_force, {1, 0, 0}, {0, 0, 1}, M_PI * r * r).cd);
    out.friction_cd.push_back(
        force_coefficients(stats.friction_force, {1, 0, 0}, {0, 0, 1}, M_PI * r * r).cd);
    out.cd.push_back(force_from_impulse(before, after, dt, {1, 0, 0}, {0, 0, 1}, M_PI * r * r).cd);
    out.n.push_back(p.size());
    before = after;
  }
  return out;
}

// Closest points, signed distances and blocked segments of points about a sphere, over its radius.
TEST(SmallBody, WallQueriesDoNotDependOnTheBodySize) {
  const auto queries = [](double r) {
    const Surface s = make_surface(sphere(6, r));
    const WallQueries wall(s);
    std::vector<double> out;
    std::uint64_t seed = 12345;
    const auto uniform = [&] {
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      return static_cast<double>(seed >> 11) / 9007199254740992.0;
    };
    for (int k = 0; k < 400; ++k) {
      const Vec3 d = normalized({uniform() - 0.5, uniform() - 0.5, uniform() - 0.5});
      const double h = 0.7 + 0.6 * uniform();  // inside and outside
      const Vec3 x = (h * r) * d;
      const WallPoint w = wall.closest(x);
      out.push_back(w.panel);
      out.push_back(w.distance / r);
      for (double c : {w.point.x, w.point.y, w.point.z}) out.push_back(c / r);
      const Vec3 q = x + (0.3 * r) * normalized({uniform() - 0.5, uniform() - 0.5, 0.1});
      out.push_back(wall.blocked(x, q) ? 1 : 0);
    }
    return out;
  };
  const std::vector<double> unit = queries(1.0);
  for (double r : {1e-20, 1e-13, 1e-8, 1e8, 1e20}) {
    const std::vector<double> scaled = queries(r);
    ASSERT_EQ(scaled.size(), unit.size());
    int differ = 0;
    for (std::size_t i = 0; i < unit.size(); ++i)
      if (!(std::abs(scaled[i] - unit[i]) <= 1e-12 * (1 + std::abs(unit[i])))) ++differ;
    EXPECT_EQ(differ, 0) << "R = " << r;
  }
}

// Radii 2^k scale every length exactly: the run is the same to the last bit, treecode included.
TEST(SmallBody, PowersOfTwoGiveTheSameRun) {
  const Outcome unit = run(1.0, Method::Tree, 1e-8);
  EXPECT_NEAR(unit.impulse0 / (-2 * M_PI), 1.0, 0.05);
  EXPECT_GT(unit.cd[0], 0);
  // The first step's pressure holds the impulsive start: over the step it gives the added-mass
  // impulse (the impulse route's jump at t = 0+, -I0) and a part of the drag's impulse, not all of
  // it: the skin friction's part is not in the pressure (measured: 6.56 against -I0 = 6.04 and
  // -I0 plus the drag's 7.06).
  const double q = 0.5 * M_PI, dt = 0.05;
  EXPECT_GT(unit.pressure_cd[0] * q * dt, -unit.impulse0);
  EXPECT_LT(unit.pressure_cd[0] * q * dt, -unit.impulse0 + unit.cd[0] * q * dt);
  EXPECT_GT(unit.pressure_cd[1], 0.5 * unit.cd[1]);
  EXPECT_LT(unit.pressure_cd[1], unit.cd[1]);
  // With the skin friction the second step's drag is the impulse route's (measured: 1.038 of it;
  // on finer spheres at Re = 100 within 1 %, the journal 2026-11-28-pressure-route.md).
  EXPECT_GT(unit.friction_cd[1], 0);
  EXPECT_NEAR((unit.pressure_cd[1] + unit.friction_cd[1]) / unit.cd[1], 1, 0.06);
  for (int k : {-50, -27, 27, 50}) {
    const Outcome scaled = run(std::ldexp(1.0, k), Method::Tree, 1e-8);
    EXPECT_NEAR(scaled.impulse0 / unit.impulse0, 1, 1e-14) << "R = 2^" << k;
    for (std::size_t s = 0; s < unit.cd.size(); ++s) {
      EXPECT_EQ(scaled.n[s], unit.n[s]) << "R = 2^" << k << ", step " << s;
      EXPECT_NEAR(scaled.cd[s] / unit.cd[s], 1, 1e-14) << "R = 2^" << k << ", step " << s;
      EXPECT_NEAR(scaled.pressure_cd[s] / unit.pressure_cd[s], 1, 1e-14)
          << "R = 2^" << k << ", step " << s;
      EXPECT_NEAR(scaled.friction_cd[s] / unit.friction_cd[s], 1, 1e-14)
          << "R = 2^" << k << ", step " << s;
    }
  }
}

// Other radii scale with rounding: with the velocities summed directly and GMRES converged to
// 1e-13, the sheet and the first step agree to 1e-12. The second step amplifies rounding through
// the VRM's and the particle control's choices (a radius of 1 + 1e-14 moves its drag by 6e-5),
// hence its looser bound.
TEST(SmallBody, SphereDragDoesNotDependOnItsSize) {
  const Outcome unit = run(1.0, Method::Direct, 1e-13);
  for (double radius : {1e-20, 1e-15, 1e-8, 1e8, 1e15}) {
    const Outcome scaled = run(radius, Method::Direct, 1e-13);
    EXPECT_NEAR(scaled.impulse0 / unit.impulse0, 1.0, 1e-12) << "R = " << radius;
    for (std::size_t s = 0; s < unit.cd.size(); ++s)
      EXPECT_EQ(scaled.n[s], unit.n[s]) << "R = " << radius << ", step " << s;
    EXPECT_NEAR(scaled.cd[0] / unit.cd[0], 1.0, 1e-12) << "R = " << radius;
    EXPECT_NEAR(scaled.pressure_cd[0] / unit.pressure_cd[0], 1.0, 1e-12) << "R = " << radius;
    EXPECT_NEAR(scaled.friction_cd[0] / unit.friction_cd[0], 1.0, 1e-12) << "R = " << radius;
    EXPECT_NEAR(scaled.cd[1] / unit.cd[1], 1.0, 2e-4) << "R = " << radius;
  }
}

}  // namespace
}  // namespace vortex::bodies
