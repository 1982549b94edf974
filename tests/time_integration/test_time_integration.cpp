// Time integration: order of accuracy of every scheme on a linear flow with a known exact
// solution, the two stretching forms, the free stream, exact conservation of total vorticity by
// the transpose scheme, and linear impulse over 100 steps of a vortex ring.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <stdexcept>

#include "support/message_of.hpp"
#include "support/reference.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/generators.hpp"
#include "vortex/solver.hpp"
#include "vortex/time_integration.hpp"

namespace vortex {
namespace {

using Mat3 = std::array<std::array<double, 3>, 3>;

// A traceless velocity gradient: rotation plus strain.
const Mat3 kA = {{{0.1, -0.7, 0.2}, {0.6, -0.3, 0.1}, {-0.2, 0.4, 0.2}}};

Mat3 transpose(const Mat3& m) {
  Mat3 t{};
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) t[a][b] = m[b][a];
  return t;
}

// exp(M t) v by its Taylor series (|M t| < 1 here, 40 terms are exact to rounding).
std::array<double, 3> exp_apply(const Mat3& m, double t, std::array<double, 3> v) {
  std::array<double, 3> sum = v, term = v;
  for (int k = 1; k < 40; ++k) {
    std::array<double, 3> next{};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) next[a] += m[a][b] * term[b] * t / k;
    term = next;
    for (int a = 0; a < 3; ++a) sum[a] += term[a];
  }
  return sum;
}

// u = A x, grad u = A everywhere.
void linear_flow(const ParticleSet& p, bool gradient, VelocityField& f) {
  f.resize(p.size(), gradient);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double x[3] = {p.x[i], p.y[i], p.z[i]};
    for (int a = 0; a < 3; ++a) {
      f.u[a][i] = kA[a][0] * x[0] + kA[a][1] * x[1] + kA[a][2] * x[2];
      if (gradient)
        for (int b = 0; b < 3; ++b) f.du[3 * a + b][i] = kA[a][b];
    }
  }
}

// Max error of positions and strengths at t = 1 after steps of dt = 1 / steps.
double linear_flow_error(TimeScheme scheme, Stretching stretching, int steps) {
  ParticleSet p;
  p.push_back(0.3, -0.2, 0.5, 1.0, 0.5, -0.25, 0.1);
  p.push_back(-0.4, 0.1, 0.2, -0.3, 0.2, 0.7, 0.1);
  const ParticleSet start = p;
  TimeIntegratorOptions options;
  options.scheme = scheme;
  options.stretching = stretching;
  TimeIntegrator integrator(linear_flow, options);
  for (int s = 0; s < steps; ++s) integrator.step(p, 1.0 / steps);
  const Mat3 g = stretching == Stretching::Classical ? kA : transpose(kA);
  double err = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto x = exp_apply(kA, 1.0, {start.x[i], start.y[i], start.z[i]});
    const auto gamma = exp_apply(g, 1.0, {start.gx[i], start.gy[i], start.gz[i]});
    const double got_x[3] = {p.x[i], p.y[i], p.z[i]};
    const double got_g[3] = {p.gx[i], p.gy[i], p.gz[i]};
    for (int a = 0; a < 3; ++a) {
      err = std::max(err, std::abs(got_x[a] - x[a]));
      err = std::max(err, std::abs(got_g[a] - gamma[a]));
    }
  }
  return err;
}

struct OrderCase {
  TimeScheme scheme;
  int order;
};

class SchemeOrder : public ::testing::TestWithParam<OrderCase> {};

TEST_P(SchemeOrder, ConvergesAtItsOrderForBothStretchingForms) {
  const OrderCase c = GetParam();
  for (Stretching stretching : {Stretching::Classical, Stretching::Transpose}) {
    const double coarse = linear_flow_error(c.scheme, stretching, 16);
    const double fine = linear_flow_error(c.scheme, stretching, 32);
    const double observed = std::log2(coarse / fine);
    EXPECT_NEAR(observed, c.order, 0.15)
        << to_string(c.scheme) << " " << to_string(stretching) << ": " << coarse << " " << fine;
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, SchemeOrder,
                         ::testing::Values(OrderCase{TimeScheme::Euler, 1},
                                           OrderCase{TimeScheme::Heun, 2},
                                           OrderCase{TimeScheme::Midpoint, 2},
                                           OrderCase{TimeScheme::RK3, 3},
                                           OrderCase{TimeScheme::RK4, 4}),
                         [](const auto& info) { return to_string(info.param.scheme); });

TEST(TimeIntegration, StretchingFormsDifferAndNoneKeepsStrengths) {
  ParticleSet p;
  p.push_back(0.1, 0.2, 0.3, 1, 2, 3, 0.1);
  VelocityField f;
  linear_flow(p, true, f);
  ParticleRates classical, transposed, none;
  compute_rates(p, f, Stretching::Classical, {0, 0, 0}, classical);
  compute_rates(p, f, Stretching::Transpose, {0, 0, 0}, transposed);
  compute_rates(p, f, Stretching::None, {0, 0, 0}, none);
  const double g[3] = {1, 2, 3};
  for (int a = 0; a < 3; ++a) {
    double c = 0, t = 0;
    for (int b = 0; b < 3; ++b) {
      c += kA[a][b] * g[b];
      t += kA[b][a] * g[b];
    }
    const double got_c = a == 0 ? classical.gx[0] : a == 1 ? classical.gy[0] : classical.gz[0];
    const double got_t = a == 0 ? transposed.gx[0] : a == 1 ? transposed.gy[0] : transposed.gz[0];
    EXPECT_NEAR(got_c, c, 1e-14);
    EXPECT_NEAR(got_t, t, 1e-14);
  }
  EXPECT_EQ(none.gx[0], 0.0);
  EXPECT_EQ(none.gz[0], 0.0);
  VelocityField no_gradient;
  linear_flow(p, false, no_gradient);
  EXPECT_THROW(compute_rates(p, no_gradient, Stretching::Transpose, {0, 0, 0}, none),
               std::invalid_argument);
}

TEST(TimeIntegration, FreeStreamMovesAnIsolatedParticleExactly) {
  ParticleSet p;
  p.push_back(0.5, -1.0, 2.0, 0.3, 0.1, -0.2, 0.2);
  Solver solver(SolverOptions{Core::Exponential, Method::Direct, Backend::Cpu});
  TimeIntegratorOptions options;
  options.free_stream = {1.0, -0.5, 0.25};
  TimeIntegrator integrator(solver, options);
  for (int s = 0; s < 10; ++s) integrator.step(p, 0.1);
  EXPECT_NEAR(p.x[0], 1.5, 1e-14);
  EXPECT_NEAR(p.y[0], -1.5, 1e-14);
  EXPECT_NEAR(p.z[0], 2.25, 1e-14);
  EXPECT_EQ(p.gx[0], 0.3);
  EXPECT_EQ(integrator.evaluations(), 20);  // Heun: two evaluations per step
}

TEST(TimeIntegration, TransposeSchemeConservesTotalVorticityToRounding) {
  ParticleSet p = testing::random_cube(150, 11, 0.15);
  Solver solver(SolverOptions{Core::Exponential, Method::Direct, Backend::Cpu});
  const Diagnostics d0 = compute_diagnostics(p);
  TimeIntegrator integrator(solver, {});
  for (int s = 0; s < 5; ++s) integrator.step(p, 0.002);
  const Diagnostics d = compute_diagnostics(p);
  double scale = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    scale += std::abs(p.gx[i]) + std::abs(p.gy[i]) + std::abs(p.gz[i]);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(d.total_vorticity[k], d0.total_vorticity[k], 1e-14 * scale) << k;
}

TEST(TimeIntegration, StepReturnsTheFieldAtTheStartOfTheStep) {
  ParticleSet p;
  p.push_back(1, 0, 0, 0, 0, 0, 0.1);
  TimeIntegratorOptions options;
  options.scheme = TimeScheme::RK4;
  TimeIntegrator integrator(linear_flow, options);
  const VelocityField& f = integrator.step(p, 0.1);
  EXPECT_DOUBLE_EQ(f.u[0][0], kA[0][0]);
  EXPECT_DOUBLE_EQ(f.u[1][0], kA[1][0]);
  EXPECT_EQ(integrator.evaluations(), 4);
}

TEST(TimeIntegration, RingConservesLinearImpulseOver100Steps) {
  RingOptions ring;
  ring.core_radius = 0.2;
  ring.layers = 1;
  const ParticleSet start = vortex_ring(ring);
  for (Stretching stretching : {Stretching::Transpose, Stretching::Classical}) {
    ParticleSet p = start;
    Solver solver(SolverOptions{Core::Exponential, Method::Direct, Backend::Cpu});
    TimeIntegratorOptions options;
    options.stretching = stretching;
    TimeIntegrator integrator(solver, options);
    const Diagnostics d0 = compute_diagnostics(p);
    for (int s = 0; s < 100; ++s) integrator.step(p, 0.02);
    const Diagnostics d = compute_diagnostics(p);
    // The ring has moved by about 0.6 of its radius.
    EXPECT_GT(d.linear_impulse[2], 0);
    EXPECT_LT(relative_change(d.linear_impulse, d0.linear_impulse), 1e-3) << to_string(stretching);
  }
}

TEST(Relaxation, TurnsStrengthsTowardTheFieldsVorticityKeepingTheirSize) {
  // The curl of u = A x: w = (A_zy - A_yz, A_xz - A_zx, A_yx - A_xy).
  const double w[3] = {kA[2][1] - kA[1][2], kA[0][2] - kA[2][0], kA[1][0] - kA[0][1]};
  const double w_norm = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const double g[3] = {1, 2, 3}, g_norm = std::sqrt(14.0);
  for (double f : {0.0, 0.25, 1.0}) {
    ParticleSet p;
    p.push_back(0.1, 0.2, 0.3, g[0], g[1], g[2], 0.1);
    VelocityField field;
    linear_flow(p, true, field);
    relax_strengths(p, field, f);
    const double got[3] = {p.gx[0], p.gy[0], p.gz[0]};
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(got[a], (1 - f) * g[a] + f * g_norm * w[a] / w_norm, 1e-14) << f << " " << a;
  }
  // A field without vorticity (a pure strain) leaves the strength as it is.
  ParticleSet p;
  p.push_back(0, 0, 0, g[0], g[1], g[2], 0.1);
  VelocityField strain;
  strain.resize(1, true);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) strain.du[3 * a + b][0] = 0.5 * (kA[a][b] + kA[b][a]);
  relax_strengths(p, strain, 0.5);
  EXPECT_EQ(p.gx[0], g[0]);
  EXPECT_EQ(p.gz[0], g[2]);
  EXPECT_THROW(relax_strengths(p, strain, 1.5), std::invalid_argument);
  VelocityField no_gradient;
  linear_flow(p, false, no_gradient);
  EXPECT_THROW(relax_strengths(p, no_gradient, 0.5), std::invalid_argument);
}

// A ring whose strengths are tilted at random off its vortex lines: the classical scheme's total
// vorticity drifts by sum w x Gamma, and relaxation, which turns the strengths back onto the
// field's vortex lines, keeps it far closer to where it started.
TEST(Relaxation, KeepsTheClassicalSchemesTotalVorticity) {
  RingOptions ring;
  ring.core_radius = 0.2;
  ring.layers = 1;
  ParticleSet start = vortex_ring(ring);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> tilt(-0.15, 0.15);
  for (std::size_t i = 0; i < start.size(); ++i) {
    const double g = std::sqrt(start.gx[i] * start.gx[i] + start.gy[i] * start.gy[i] +
                               start.gz[i] * start.gz[i]);
    start.gx[i] += g * tilt(rng);
    start.gy[i] += g * tilt(rng);
    start.gz[i] += g * tilt(rng);
  }
  double drift[2] = {0, 0};
  for (int relax = 0; relax < 2; ++relax) {
    ParticleSet p = start;
    Solver solver(SolverOptions{Core::Exponential, Method::Direct, Backend::Cpu});
    TimeIntegratorOptions options;
    options.stretching = Stretching::Classical;
    options.relaxation = relax ? 0.3 : 0;
    TimeIntegrator integrator(solver, options);
    // From step 5 on: the first relaxations turn the tilted strengths, and so move the total, once.
    for (int s = 0; s < 5; ++s) integrator.step(p, 0.02);
    const Diagnostics d0 = compute_diagnostics(p);
    for (int s = 5; s < 40; ++s) integrator.step(p, 0.02);
    const Diagnostics d = compute_diagnostics(p);
    for (int k = 0; k < 3; ++k)
      drift[relax] = std::max(drift[relax], std::abs(d.total_vorticity[k] - d0.total_vorticity[k]));
  }
  EXPECT_GT(drift[0], 1e-3);  // the case has a drift to remove
  EXPECT_LT(drift[1], 0.25 * drift[0]) << drift[0] << " " << drift[1];
}

// A rate relaxes by the fraction rate * dt of each step (at most the whole strength), so one
// step at a rate equals one step at that fraction; bad rates are refused.
TEST(Relaxation, RateGivesTheFractionOfEachStep) {
  RingOptions ring;
  ring.core_radius = 0.2;
  ring.layers = 1;
  ParticleSet start = vortex_ring(ring);
  for (std::size_t i = 0; i < start.size(); ++i) start.gx[i] += 0.1 * start.gz[i] + 0.01;
  Solver solver(SolverOptions{Core::Exponential, Method::Direct, Backend::Cpu});
  auto one_step = [&](double fraction, double rate, double dt) {
    TimeIntegratorOptions options;
    options.scheme = TimeScheme::Euler;
    options.stretching = Stretching::None;
    options.relaxation = fraction;
    options.relaxation_rate = rate;
    ParticleSet p = start;
    TimeIntegrator(solver, options).step(p, dt);
    return p;
  };
  for (const auto& [rate, dt, fraction] :
       {std::array<double, 3>{2.5, 0.04, 0.1}, std::array<double, 3>{40.0, 0.05, 1.0}}) {
    const ParticleSet a = one_step(0, rate, dt), b = one_step(fraction, 0, dt);
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_DOUBLE_EQ(a.gx[i], b.gx[i]);
      EXPECT_DOUBLE_EQ(a.gy[i], b.gy[i]);
      EXPECT_DOUBLE_EQ(a.gz[i], b.gz[i]);
    }
    EXPECT_NE(a.gx[0], start.gx[0]);  // the strengths did turn
  }
  TimeIntegratorOptions both;
  both.relaxation = 0.1;
  both.relaxation_rate = 1;
  EXPECT_THROW(TimeIntegrator(solver, both), std::invalid_argument);
  // A program with a fixed step reports a rate that would turn more than the whole strength.
  EXPECT_NO_THROW(check_relaxation(0, 24, "fraction", "rate", 0.04, "dt"));
  EXPECT_THROW(check_relaxation(0, 26, "fraction", "rate", 0.04, "dt"), std::invalid_argument);
  EXPECT_EQ(
      testing::message_of<std::invalid_argument>(
          [] { check_relaxation(0, 1e30, "fraction", "rate", 1e-20, "dt"); }),
      "rate 1e+30 with dt 1e-20 turns the strengths by more than the whole fraction 1 a step");
  TimeIntegratorOptions negative;
  negative.relaxation_rate = -1;
  EXPECT_THROW(TimeIntegrator(solver, negative), std::invalid_argument);
}

TEST(TimeIntegration, NamesRoundTrip) {
  for (TimeScheme s : {TimeScheme::Euler, TimeScheme::Heun, TimeScheme::Midpoint, TimeScheme::RK3,
                       TimeScheme::RK4})
    EXPECT_EQ(parse_time_scheme(to_string(s)), s);
  for (Stretching s : {Stretching::None, Stretching::Classical, Stretching::Transpose})
    EXPECT_EQ(parse_stretching(to_string(s)), s);
  EXPECT_EQ(parse_time_scheme("rk2"), TimeScheme::Heun);
  EXPECT_EQ(stages(TimeScheme::Heun), 2);
  EXPECT_EQ(stages(TimeScheme::RK4), 4);
  EXPECT_THROW(parse_time_scheme("leapfrog"), std::invalid_argument);
  EXPECT_THROW(parse_stretching("both"), std::invalid_argument);
}

}  // namespace
}  // namespace vortex
