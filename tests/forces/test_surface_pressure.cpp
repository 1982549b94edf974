// The surface pressure from its tangential gradient (SurfacePressure): a linear pressure is
// recovered exactly and its force is -a V of the mesh; a quadratic one converges with the panel
// size, and so does its force -integral grad p dV; on the sphere at t = 0+ the pressure of the shed
// sheet gives the impulse of the impulsive start, -dI = 2 pi a^3 U, as the sheet's impulse does.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "vortex/bodies/bem_solver.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/sheet.hpp"
#include "vortex/bodies/surface_pressure.hpp"

namespace vortex::bodies {
namespace {

// The tangential part of grad p at each panel's centroid.
template <class Gradient>
std::vector<Vec3> tangential(const Surface& s, Gradient grad) {
  std::vector<Vec3> g(s.size());
  for (std::size_t j = 0; j < s.size(); ++j) {
    const Panel& p = s.panels[j];
    const Vec3 full = grad(p.centroid);
    g[j] = full - dot(full, p.normal) * p.normal;
  }
  return g;
}

TEST(SurfacePressure, ALinearPressureIsRecoveredExactly) {
  const Surface s = make_surface(ellipsoid(6, 0.5, 0.4, 0.3));
  const Vec3 a{0.3, -1.2, 0.7};
  SurfacePressure pressure(s);
  const std::vector<double>& p = pressure.solve(tangential(s, [&](const Vec3&) { return a; }));
  // a . x less its area-weighted mean over the vertices.
  double mean = 0, area = 0;
  std::vector<double> w(s.mesh.vertices.size(), 0.0);
  for (std::size_t j = 0; j < s.size(); ++j)
    for (int c = 0; c < 3; ++c) w[s.mesh.triangles[j][c]] += s.panels[j].area / 3;
  for (std::size_t v = 0; v < w.size(); ++v) {
    const auto& x = s.mesh.vertices[v];
    mean += w[v] * (a.x * x[0] + a.y * x[1] + a.z * x[2]);
    area += w[v];
  }
  mean /= area;
  for (std::size_t v = 0; v < w.size(); ++v) {
    const auto& x = s.mesh.vertices[v];
    EXPECT_NEAR(p[v], a.x * x[0] + a.y * x[1] + a.z * x[2] - mean, 1e-12);
  }
  const Vec3 f = pressure.force();
  EXPECT_NEAR(f.x, -a.x * s.volume, 1e-12);
  EXPECT_NEAR(f.y, -a.y * s.volume, 1e-12);
  EXPECT_NEAR(f.z, -a.z * s.volume, 1e-12);
}

// A vertex on no panel (a mesh file may list one) leaves the surface's pressure as it was.
TEST(SurfacePressure, AVertexOnNoPanelIsLeftOut) {
  TriangleMesh m = sphere(4, 0.5);
  m.vertices.insert(m.vertices.begin(), {9, 9, 9});
  for (auto& t : m.triangles)
    for (int& v : t) ++v;
  const Surface s = make_surface(m);
  const Vec3 a{0, 0.5, -2};
  SurfacePressure pressure(s);
  const std::vector<double>& p = pressure.solve(tangential(s, [&](const Vec3&) { return a; }));
  EXPECT_EQ(p.size(), m.vertices.size());
  EXPECT_NEAR(
      p[2] - p[1],
      0.5 * (m.vertices[2][1] - m.vertices[1][1]) - 2 * (m.vertices[2][2] - m.vertices[1][2]),
      1e-12);
  const Vec3 f = pressure.force();
  EXPECT_NEAR(f.y, -a.y * s.volume, 1e-12);
  EXPECT_NEAR(f.z, -a.z * s.volume, 1e-12);
}

// p = x^2 on a sphere of radius 1 centred at (0.3, 0, 0): -integral p n dS = -integral 2 x e_x dV
// = -0.6 V e_x with V = 4 pi / 3. The pressure's error falls with the panel size squared.
TEST(SurfacePressure, AQuadraticPressureConverges) {
  double last_force = 1, last_p = 1;
  for (int f : {6, 12, 24}) {
    TriangleMesh m = sphere(f, 1.0);
    for (auto& v : m.vertices) v[0] += 0.3;
    const Surface s = make_surface(m);
    SurfacePressure pressure(s);
    const std::vector<double>& p = pressure.solve(tangential(s, [](const Vec3& x) {
      return Vec3{2 * x.x, 0, 0};
    }));
    // Compare p + c with x^2 at the vertices, c the best constant.
    double shift = 0;
    for (std::size_t v = 0; v < p.size(); ++v) shift += m.vertices[v][0] * m.vertices[v][0] - p[v];
    shift /= static_cast<double>(p.size());
    double err = 0;
    for (std::size_t v = 0; v < p.size(); ++v)
      err = std::max(err, std::abs(p[v] + shift - m.vertices[v][0] * m.vertices[v][0]));
    const double force_err = std::abs(pressure.force().x / (-0.6 * 4 * M_PI / 3) - 1);
    EXPECT_LT(err, last_p / 3) << "frequency " << f;
    EXPECT_LT(force_err, last_force / 3) << "frequency " << f;
    EXPECT_LT(std::abs(pressure.force().y), 1e-12);
    last_p = err;
    last_force = force_err;
  }
  EXPECT_LT(last_force, 2e-3);
}

// At t = 0+ the sheet is the potential flow's slip, all of it shed in the first sub-step: the
// pressure of that flux over dt is -phi / dt, and its force times dt is the jump of the impulse,
// 2 pi a^3 U along the stream (BODIES B1), found here from the pressure alone.
TEST(SurfacePressure, TheImpulsiveStartsPressureGivesTheAddedMassImpulse) {
  const double a = 0.5, dt = 0.01;
  const Vec3 stream{0.6, 0, 0.8};
  const Surface s = make_surface(sphere(8, a));
  BemOptions o;
  o.solver.backend = Backend::Cpu;
  BemSolver bem(s, o);
  bem.solve({stream.x, stream.y, stream.z});
  SurfacePressure pressure(s);
  pressure.solve(pressure_gradient_from_shedding(s, sheet_vectors(s, bem.gamma()), dt));
  const Vec3 impulse = dt * pressure.force();
  const double exact = 2 * M_PI * a * a * a;
  EXPECT_NEAR(dot(impulse, stream) / exact, 1.0, 0.02);
  EXPECT_LT(norm(impulse - dot(impulse, stream) * stream), 1e-3 * exact);
  // The sheet's impulse (the impulse route) agrees to the same order.
  const Vec3 sheet = sheet_impulse(s, bem.gamma());
  EXPECT_LT(norm(impulse + sheet), 0.02 * exact);
  EXPECT_THROW(pressure.solve(std::vector<Vec3>(3)), std::invalid_argument);
}

}  // namespace
}  // namespace vortex::bodies
