// Diagnostics: total vorticity, linear and angular impulse of known configurations, the sums that
// need the field, and the per-step CSV file.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "vortex/diagnostics.hpp"
#include "vortex/generators.hpp"
#include "vortex/ring_theory.hpp"

namespace vortex {
namespace {

TEST(Diagnostics, SingleParticleMoments) {
  ParticleSet p;
  p.push_back(1, 2, 3, 0.5, -1, 2, 0.1);
  const Diagnostics d = compute_diagnostics(p, nullptr, 1.5);
  EXPECT_EQ(d.time, 1.5);
  EXPECT_EQ(d.count, 1u);
  EXPECT_EQ(d.total_vorticity, (std::array<double, 3>{0.5, -1, 2}));
  // x x Gamma = (2*2 - 3*(-1), 3*0.5 - 1*2, 1*(-1) - 2*0.5) = (7, -0.5, -2)
  EXPECT_DOUBLE_EQ(d.linear_impulse[0], 3.5);
  EXPECT_DOUBLE_EQ(d.linear_impulse[1], -0.25);
  EXPECT_DOUBLE_EQ(d.linear_impulse[2], -1.0);
  // x x (7, -0.5, -2) = (2*(-2) - 3*(-0.5), 3*7 - 1*(-2), 1*(-0.5) - 2*7) = (-2.5, 23, -14.5)
  EXPECT_DOUBLE_EQ(d.angular_impulse[0], -2.5 / 3);
  EXPECT_DOUBLE_EQ(d.angular_impulse[1], 23.0 / 3);
  EXPECT_DOUBLE_EQ(d.angular_impulse[2], -14.5 / 3);
  EXPECT_DOUBLE_EQ(d.max_strength, std::sqrt(0.25 + 1 + 4));
  EXPECT_TRUE(std::isnan(d.energy));
  EXPECT_TRUE(std::isnan(d.enstrophy));
}

TEST(Diagnostics, RingImpulseMatchesItsCrossSection) {
  RingOptions o;
  o.radius = 1.3;
  o.core_radius = 0.2;
  o.layers = 2;
  o.circulation = 0.7;
  o.center = {0.5, -0.2, 2.0};
  const ParticleSet p = vortex_ring(o);
  const Diagnostics d = compute_diagnostics(p);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(d.total_vorticity[k], 0, 1e-13);
  // I = pi Gamma sum_k w_k (R + dr_k)^2 along the axis, whatever the ring's center.
  const CrossSection c = ring_cross_section(o);
  double expected = 0;
  for (std::size_t k = 0; k < c.weight.size(); ++k)
    expected += c.weight[k] * (o.radius + c.dr[k]) * (o.radius + c.dr[k]);
  expected *= M_PI * o.circulation;
  EXPECT_NEAR(d.linear_impulse[2] / expected, 1.0, 1e-13);
  EXPECT_NEAR(d.linear_impulse[0], 0, 1e-13);
  EXPECT_NEAR(d.linear_impulse[1], 0, 1e-13);
}

TEST(Diagnostics, ImpulseOfAClosedSystemIsTranslationInvariant) {
  RingOptions o;
  o.axis = {1, 2, 0.5};
  o.layers = 1;
  ParticleSet p = vortex_ring(o);
  const Diagnostics a = compute_diagnostics(p);
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.x[i] += 3;
    p.y[i] -= 1;
    p.z[i] += 0.5;
  }
  const Diagnostics b = compute_diagnostics(p);
  EXPECT_LT(relative_change(b.linear_impulse, a.linear_impulse), 1e-13);
  // The impulse points along the axis, the direction the ring moves.
  const double n = norm(a.linear_impulse);
  EXPECT_NEAR(a.linear_impulse[0] / n, 1 / std::sqrt(5.25), 1e-12);
}

TEST(Diagnostics, FieldSums) {
  ParticleSet p;
  p.push_back(1, 0, 0, 0, 1, 0, 0.1);
  p.push_back(0, 1, 0, 0, 0, 2, 0.1);
  VelocityField f;
  f.resize(2, true);
  f.u[2][0] = 0.5;   // u = (0, 0, 0.5) at particle 0
  f.u[0][1] = 1.0;   // u = (1, 0, 0) at particle 1
  f.du[3][0] = 2.0;  // du_y/dx = 2: omega_z = 2 at particle 0
  f.du[7][1] = 1.0;  // du_z/dy = 1: omega_x = 1 at particle 1
  const Diagnostics d = compute_diagnostics(p, &f);
  // x x Gamma: (0, 0, 1) and (2, 0, 0). Energy = 0.5 * 1 + 1 * 2.
  EXPECT_DOUBLE_EQ(d.energy, 2.5);
  EXPECT_DOUBLE_EQ(d.helicity, 0.0);
  EXPECT_DOUBLE_EQ(d.enstrophy, 0.0);  // omega . Gamma: (0,0,2).(0,1,0) + (1,0,0).(0,0,2)
  f.u[1][0] = 3.0;
  EXPECT_DOUBLE_EQ(compute_diagnostics(p, &f).helicity, 3.0);
}

TEST(Diagnostics, CsvWriterWritesHeaderAndRows) {
  const std::string path = ::testing::TempDir() + "diagnostics_test.csv";
  {
    DiagnosticsCsv csv(path, {"ring_z", "speed"});
    ParticleSet p;
    p.push_back(1, 2, 3, 0.5, -1, 2, 0.1);
    csv.write(0, compute_diagnostics(p, nullptr, 0.0), {0.25, 0.5});
    csv.write(1, compute_diagnostics(p, nullptr, 0.1), {0.3, 0.5});
    EXPECT_THROW(csv.write(2, compute_diagnostics(p), {1.0}), std::invalid_argument);
  }
  std::ifstream in(path);
  std::string header, row0, row1;
  std::getline(in, header);
  std::getline(in, row0);
  std::getline(in, row1);
  auto columns = [](const std::string& line) {
    return 1 + std::count(line.begin(), line.end(), ',');
  };
  EXPECT_EQ(header.rfind("step,time,count,vorticity_x", 0), 0u);
  EXPECT_NE(header.find("impulse_z"), std::string::npos);
  EXPECT_NE(header.find(",ring_z,speed"), std::string::npos);
  EXPECT_EQ(columns(row0), columns(header));
  EXPECT_EQ(columns(row1), columns(header));
  EXPECT_EQ(row1.rfind("1,0.1,1,", 0), 0u);
  std::remove(path.c_str());
  EXPECT_THROW(DiagnosticsCsv("/nonexistent-folder/x.csv"), std::runtime_error);
}

TEST(Diagnostics, RelativeChange) {
  EXPECT_DOUBLE_EQ(relative_change({1, 0, 0}, {2, 0, 0}), 0.5);
  EXPECT_DOUBLE_EQ(relative_change({0, 0, 0}, {0, 0, 0}), 0.0);
  EXPECT_DOUBLE_EQ(norm({3, 4, 0}), 5.0);
}

// Weighted by the z strength alone, about the origin: (+-1, 0, 0) with 1 each and (0, 2, 0) with 2
// give 2 / 4 along x and 8 / 4 along y; a particle without z strength adds nothing.
TEST(Diagnostics, ZVorticitySecondMomentsWeighByTheZStrength) {
  ParticleSet p;
  p.push_back(1, 0, 0, 0, 0, 1, 0.1);
  p.push_back(-1, 0, 0, 0, 0, 1, 0.1);
  p.push_back(0, 2, 0, 0, 0, 2, 0.1);
  p.push_back(0, 0, 3, 5, 5, 0, 0.1);
  const std::array<double, 3> m2 = z_vorticity_second_moments(p);
  EXPECT_DOUBLE_EQ(m2[0], 0.5);
  EXPECT_DOUBLE_EQ(m2[1], 2.0);
  EXPECT_DOUBLE_EQ(m2[2], 0.0);
}

}  // namespace
}  // namespace vortex
