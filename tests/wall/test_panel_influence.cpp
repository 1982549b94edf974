// Panel influence: the exact field K(x) = int_P (x - y)/|x - y|^3 dS of a flat triangle against
// adaptive numerical quadrature, the jump of the sheet velocity across the panel (gamma x n), the
// solid angles of a closed surface (-4 pi inside, 0 outside), and the point-source far form.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/quadrature.hpp"
#include "vortex/bodies/surface.hpp"
#include "vortex/math/panel_influence.hpp"

namespace vortex::bodies {
namespace {

Vec3 rule_on(const Panel& p, const Vec3& x, const TriangleRule& r) {
  Vec3 k;
  for (std::size_t q = 0; q < r.size(); ++q) {
    const Vec3 d = x - panel_point(p, r.bary[q][0], r.bary[q][1], r.bary[q][2]);
    k += (p.area * r.weight[q] / std::pow(dot(d, d), 1.5)) * d;
  }
  return k;
}

// K by adaptive subdivision: a triangle is split in four until the 7-point rule on it and on its
// four halves agree to `tol` (absolute, scaled by the area).
Vec3 adaptive(const Panel& p, const Vec3& x, double tol, int depth = 0) {
  static const TriangleRule r7 = triangle_rule(7);
  const Vec3 whole = rule_on(p, x, r7);
  const Vec3 m01 = 0.5 * (p.v0 + p.v1), m12 = 0.5 * (p.v1 + p.v2), m20 = 0.5 * (p.v2 + p.v0);
  const Panel sub[4] = {make_panel(p.v0, m01, m20), make_panel(m01, p.v1, m12),
                        make_panel(m20, m12, p.v2), make_panel(m12, m20, m01)};
  Vec3 parts;
  for (const Panel& s : sub) parts += rule_on(s, x, r7);
  if (depth > 14 || norm(parts - whole) < tol * p.area) return parts;
  Vec3 sum;
  for (const Panel& s : sub) sum += adaptive(s, x, tol, depth + 1);
  return sum;
}

Panel test_panel() {
  return make_panel({0.1, -0.2, 0.3}, {1.2, 0.1, 0.5}, {0.3, 0.9, 0.1});
}

TEST(PanelInfluence, ExactFieldMatchesAdaptiveQuadrature) {
  const Panel p = test_panel();
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int t = 0; t < 40; ++t) {
    // Points from 0.05 to 3 diameters off the plane, above and below, over and beside the panel.
    const double h = (t % 2 ? 1 : -1) * p.diameter * (0.05 + 3.0 * (t / 40.0));
    const Vec3 x = p.centroid + (0.8 * p.diameter * u(rng)) * p.t1 +
                   (0.8 * p.diameter * u(rng)) * p.t2 + h * p.normal;
    const Vec3 exact = panel_field_exact(p, x);
    const Vec3 ref = adaptive(p, x, 1e-11);
    EXPECT_LT(norm(exact - ref), 1e-8 * norm(ref)) << "point " << t;
  }
}

TEST(PanelInfluence, EdgeIntegralOnTheEdgeLineAndBeyond) {
  // ln((R_b + t_b)/(R_a + t_a)) against a fine midpoint sum, including points on the line of the
  // edge beyond either end, where the naive form cancels.
  const Vec3 a{0, 0, 0}, b{1, 0, 0};
  for (const Vec3 x :
       {Vec3{-0.5, 1e-9, 0}, Vec3{1.7, 0, 1e-9}, Vec3{0.4, 0.3, 0.2}, Vec3{-3, 0.01, 0}}) {
    const int n = 200000;
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += 1.0 / norm(Vec3{(i + 0.5) / n, 0, 0} - x) / n;
    EXPECT_NEAR(edge_log(x, a, b, 1.0), sum, 1e-7 * sum);
  }
}

TEST(PanelInfluence, SheetVelocityJumpsByGammaCrossN) {
  const Panel p = test_panel();
  const Vec3 gamma = 0.7 * p.t1 - 1.3 * p.t2;
  const TriangleRule r = triangle_rule(7);
  for (std::size_t q = 0; q < r.size(); ++q) {
    const Vec3 y = panel_point(p, r.bary[q][0], r.bary[q][1], r.bary[q][2]);
    const double eps = 1e-7 * p.diameter;
    const Vec3 up = sheet_velocity(gamma, panel_field_exact(p, y + eps * p.normal));
    const Vec3 down = sheet_velocity(gamma, panel_field_exact(p, y - eps * p.normal));
    const Vec3 jump = cross(gamma, p.normal);
    EXPECT_LT(norm(up - down - jump), 1e-5 * norm(jump));
    // The principal value in the plane is the mean of the two sides.
    const Vec3 pv = sheet_velocity(gamma, panel_field_exact(p, y));
    EXPECT_LT(norm(pv - 0.5 * (up + down)), 1e-5 * norm(jump));
  }
}

TEST(PanelInfluence, SolidAnglesOfAClosedSurface) {
  const Surface s = make_surface(ellipsoid(4, 1.0, 0.8, 0.5));
  for (const Vec3 x : {Vec3{0.1, 0.2, -0.1}, Vec3{0.9, 0, 0}}) {
    double omega = 0;
    for (const Panel& p : s.panels) omega += solid_angle(x, p.v0, p.v1, p.v2);
    EXPECT_NEAR(omega, -4 * M_PI, 1e-10) << "inside";
  }
  double outside = 0;
  for (const Panel& p : s.panels) outside += solid_angle({1.3, 0.4, 0.2}, p.v0, p.v1, p.v2);
  EXPECT_NEAR(outside, 0, 1e-10);
}

TEST(PanelInfluence, PointFormConvergesToTheExactFieldFarAway) {
  const Panel p = test_panel();
  const TriangleRule r3 = triangle_rule(3);
  double bary[3][3];
  for (int q = 0; q < 3; ++q)
    for (int c = 0; c < 3; ++c) bary[q][c] = r3.bary[q][c];
  double prev = 1;
  for (double dist : {2.0, 4.0, 8.0}) {
    const Vec3 x = p.centroid + (dist * p.diameter) * normalized(Vec3{0.3, 1, 0.4});
    const Vec3 exact = panel_field_exact(p, x);
    const double err3 =
        norm(panel_field_points(p, x, bary, r3.weight.data(), 3) - exact) / norm(exact);
    EXPECT_LT(err3, prev / 6) << "third order at " << dist << " diameters";
    prev = err3;
    const Vec3 gamma{1, 2, 3};
    const Vec3 far = panel_sheet_velocity(p, gamma, x, 0.0);
    const Vec3 near = panel_sheet_velocity(p, gamma, x, 1e9);
    EXPECT_LT(norm(far - near), 0.1 / (dist * dist) * norm(near));
  }
}

}  // namespace
}  // namespace vortex::bodies
