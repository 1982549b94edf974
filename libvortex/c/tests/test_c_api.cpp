// The C interface against the C++ Solver on the same input: equal results for every layout, errors
// as status codes with messages.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "vortex.h"
#include "vortex/generators.hpp"
#include "vortex/solver.hpp"

namespace {

struct Handle {
  vortex_solver* solver = nullptr;
  explicit Handle(const vortex_options& o) {
    EXPECT_EQ(vortex_solver_create(&o, &solver), VORTEX_OK) << vortex_last_error();
  }
  ~Handle() { vortex_solver_destroy(solver); }
};

vortex_options cpu_tree() {
  vortex_options o;
  vortex_default_options(&o);
  o.backend = VORTEX_BACKEND_CPU;
  return o;
}

vortex::VelocityField cpp_field(const vortex::ParticleSet& p, vortex::Method method) {
  vortex::SolverOptions o;
  o.backend = vortex::Backend::Cpu;
  o.method = method;
  vortex::Solver solver(o);
  return solver.evaluate(p, true);
}

std::vector<double> interleave(const std::vector<double>& a, const std::vector<double>& b,
                               const std::vector<double>& c) {
  std::vector<double> out;
  for (std::size_t i = 0; i < a.size(); ++i) out.insert(out.end(), {a[i], b[i], c[i]});
  return out;
}

// The velocity and gradient of p at its own particles, read from separate double arrays, into u
// (n x 3) and du (n x 9); the status of vortex_evaluate.
int evaluate_separate(vortex_solver* solver, const vortex::ParticleSet& p, std::vector<double>& u,
                      std::vector<double>& du) {
  u.assign(3 * p.size(), 0);
  du.assign(9 * p.size(), 0);
  const vortex_sources s =
      vortex_sources_separate(p.size(), VORTEX_FLOAT64, p.x.data(), p.y.data(), p.z.data(),
                              p.gx.data(), p.gy.data(), p.gz.data(), p.sigma.data());
  const vortex_field f = vortex_field_interleaved(VORTEX_FLOAT64, u.data(), du.data());
  return vortex_evaluate(solver, &s, nullptr, &f);
}

// Every velocity and gradient value of `row_major` (n x 3, n x 9) equals the C++ field's.
void expect_equal(const vortex::VelocityField& f, const std::vector<double>& u,
                  const std::vector<double>& du, double tolerance) {
  for (std::size_t i = 0; i < f.size(); ++i) {
    for (int a = 0; a < 3; ++a)
      ASSERT_NEAR(u[3 * i + a], f.u[a][i], tolerance * std::abs(f.u[a][i])) << i << " " << a;
    for (int k = 0; k < 9; ++k)
      ASSERT_NEAR(du[9 * i + k], f.du[k][i], tolerance * std::abs(f.du[k][i])) << i << " " << k;
  }
}

TEST(CApi, SeparateDoubleArraysAreReadInPlaceAndMatchCpp) {
  const vortex::ParticleSet p = vortex::random_cube(3000, 11);
  const vortex::VelocityField ref = cpp_field(p, vortex::Method::Tree);
  Handle h(cpu_tree());
  std::vector<double> u, du;
  ASSERT_EQ(evaluate_separate(h.solver, p, u, du), VORTEX_OK) << vortex_last_error();
  expect_equal(ref, u, du, 0.0);
  vortex_stats stats;
  ASSERT_EQ(vortex_solver_stats(h.solver, &stats), VORTEX_OK);
  EXPECT_EQ(stats.copied_columns, 0);
  EXPECT_EQ(stats.backend, VORTEX_BACKEND_CPU);
  EXPECT_EQ(stats.order, ref.stats.tree.order);
  EXPECT_EQ(stats.pair_interactions, ref.stats.pair_interactions);
  EXPECT_GT(stats.total, 0.0);
  // The host builds the trees, lists and multipoles one after the other.
  EXPECT_DOUBLE_EQ(stats.setup, stats.tree + stats.lists + stats.multipole);
  EXPECT_GT(stats.setup, 0.0);
  EXPECT_LE(stats.setup, stats.total);
  // The layout the model read: the C++ stats' (a cube: a volume).
  ASSERT_GT(ref.stats.layout.num_sources, 0u);
  EXPECT_GT(stats.layout_dimension, 2.5);
  EXPECT_EQ(stats.layout_contrast, ref.stats.layout.contrast);
  EXPECT_EQ(stats.layout_dimension, ref.stats.layout.dimension);
  EXPECT_EQ(stats.layout_spread, ref.stats.layout.spread);
}

TEST(CApi, InterleavedDoubleMatchesCppDirectSum) {
  const vortex::ParticleSet p = vortex::random_cube(800, 12);
  const vortex::VelocityField ref = cpp_field(p, vortex::Method::Direct);
  vortex_options o = cpu_tree();
  o.method = VORTEX_METHOD_DIRECT;
  Handle h(o);
  const std::vector<double> x = interleave(p.x, p.y, p.z), g = interleave(p.gx, p.gy, p.gz);
  std::vector<double> u(3 * p.size()), du(9 * p.size());
  const vortex_sources s =
      vortex_sources_interleaved(p.size(), VORTEX_FLOAT64, x.data(), g.data(), p.sigma.data());
  const vortex_field f = vortex_field_interleaved(VORTEX_FLOAT64, u.data(), du.data());
  ASSERT_EQ(vortex_evaluate(h.solver, &s, nullptr, &f), VORTEX_OK) << vortex_last_error();
  expect_equal(ref, u, du, 0.0);
  vortex_stats stats;
  vortex_solver_stats(h.solver, &stats);
  EXPECT_EQ(stats.copied_columns, 6);  // x, y, z, gx, gy, gz de-interleaved; sigma in place
}

TEST(CApi, FloatInputsEqualCppOnTheSameRoundedValues) {
  vortex::ParticleSet p = vortex::random_cube(600, 13);
  std::vector<float> xf, gf, sf;
  for (std::size_t i = 0; i < p.size(); ++i) {
    xf.insert(xf.end(), {float(p.x[i]), float(p.y[i]), float(p.z[i])});
    gf.insert(gf.end(), {float(p.gx[i]), float(p.gy[i]), float(p.gz[i])});
    sf.push_back(float(p.sigma[i]));
    p.x[i] = xf[3 * i], p.y[i] = xf[3 * i + 1], p.z[i] = xf[3 * i + 2];
    p.gx[i] = gf[3 * i], p.gy[i] = gf[3 * i + 1], p.gz[i] = gf[3 * i + 2];
    p.sigma[i] = sf[i];
  }
  const vortex::VelocityField ref = cpp_field(p, vortex::Method::Direct);
  vortex_options o = cpu_tree();
  o.method = VORTEX_METHOD_DIRECT;
  Handle h(o);
  std::vector<float> u(3 * p.size()), du(9 * p.size());
  const vortex_sources s =
      vortex_sources_interleaved(p.size(), VORTEX_FLOAT32, xf.data(), gf.data(), sf.data());
  const vortex_field f = vortex_field_interleaved(VORTEX_FLOAT32, u.data(), du.data());
  ASSERT_EQ(vortex_evaluate(h.solver, &s, nullptr, &f), VORTEX_OK) << vortex_last_error();
  // Outputs are the double results rounded to float once.
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (int a = 0; a < 3; ++a) ASSERT_EQ(u[3 * i + a], float(ref.u[a][i]));
    for (int k = 0; k < 9; ++k) ASSERT_EQ(du[9 * i + k], float(ref.du[k][i]));
  }
}

TEST(CApi, SeparateTargetsAndVelocityOnly) {
  const vortex::ParticleSet p = vortex::random_cube(1000, 14);
  const vortex::ParticleSet t = vortex::random_cube(300, 15);
  vortex::SolverOptions cpp;
  cpp.backend = vortex::Backend::Cpu;
  vortex::Solver solver(cpp);
  const vortex::VelocityField ref = solver.evaluate(p, vortex::PointsView(t), false);
  Handle h(cpu_tree());
  std::vector<double> ux(t.size()), uy(t.size()), uz(t.size());
  const vortex_sources s =
      vortex_sources_separate(p.size(), VORTEX_FLOAT64, p.x.data(), p.y.data(), p.z.data(),
                              p.gx.data(), p.gy.data(), p.gz.data(), p.sigma.data());
  const vortex_points at =
      vortex_points_separate(t.size(), VORTEX_FLOAT64, t.x.data(), t.y.data(), t.z.data());
  vortex_field f{};
  f.type = VORTEX_FLOAT64;
  f.u[0] = ux.data(), f.u[1] = uy.data(), f.u[2] = uz.data();
  f.u_stride = 1;
  ASSERT_EQ(vortex_evaluate(h.solver, &s, &at, &f), VORTEX_OK) << vortex_last_error();
  EXPECT_EQ(ux, ref.u[0]);
  EXPECT_EQ(uy, ref.u[1]);
  EXPECT_EQ(uz, ref.u[2]);
}

TEST(CApi, BadInputGivesStatusAndMessage) {
  vortex::ParticleSet p = vortex::random_cube(50, 16);
  Handle h(cpu_tree());
  std::vector<double> u(3 * p.size());
  const vortex_field f = vortex_field_interleaved(VORTEX_FLOAT64, u.data(), nullptr);
  vortex_sources s =
      vortex_sources_separate(p.size(), VORTEX_FLOAT64, p.x.data(), p.y.data(), p.z.data(),
                              p.gx.data(), p.gy.data(), p.gz.data(), p.sigma.data());
  p.sigma[7] = 0;
  EXPECT_EQ(vortex_evaluate(h.solver, &s, nullptr, &f), VORTEX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(vortex_last_error()).find("sigma[7] must be positive"), std::string::npos)
      << vortex_last_error();
  p.sigma[7] = 0.1;
  p.y[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(vortex_evaluate(h.solver, &s, nullptr, &f), VORTEX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(vortex_last_error()).find("y[3] is not finite"), std::string::npos);
  s.gz = nullptr;
  EXPECT_EQ(vortex_evaluate(h.solver, &s, nullptr, &f), VORTEX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(vortex_last_error()).find("gz is NULL"), std::string::npos);
  s.n = 0;
  s.gz = p.gz.data();
  EXPECT_EQ(vortex_evaluate(h.solver, &s, nullptr, &f), VORTEX_ERROR_INVALID_ARGUMENT);
  s.n = p.size();
  s.type = 7;
  EXPECT_EQ(vortex_evaluate(h.solver, &s, nullptr, &f), VORTEX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(vortex_evaluate(nullptr, &s, nullptr, &f), VORTEX_ERROR_INVALID_ARGUMENT);
}

// The C solver with options `o` gives the C++ Solver's field with `cpp` on p, to the bit; returns
// its stats and the C++ field's.
vortex_stats equals_cpp(const vortex::ParticleSet& p, const vortex::SolverOptions& cpp,
                        const vortex_options& o, vortex::EvaluationStats& cpp_stats) {
  const vortex::VelocityField ref = vortex::Solver(cpp).evaluate(p, true);
  cpp_stats = ref.stats;
  Handle h(o);
  std::vector<double> u, du;
  vortex_stats stats{};
  EXPECT_EQ(evaluate_separate(h.solver, p, u, du), VORTEX_OK) << vortex_last_error();
  expect_equal(ref, u, du, 0.0);
  EXPECT_EQ(vortex_solver_stats(h.solver, &stats), VORTEX_OK);
  return stats;
}

// Options the C interface refuses, with a message that names the option.
void expect_rejected(const vortex_options& o, const char* option) {
  vortex_solver* bad = nullptr;
  EXPECT_EQ(vortex_solver_create(&o, &bad), VORTEX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(vortex_last_error()).find(option), std::string::npos)
      << vortex_last_error();
}

TEST(CApi, ToleranceEqualsTheCppPickAndIsReported) {
  const vortex::ParticleSet p = vortex::random_cube(3000, 12);
  vortex::SolverOptions cpp;
  cpp.backend = vortex::Backend::Cpu;
  cpp.tolerance = 1e-5;
  vortex_options o = cpu_tree();
  o.tolerance = 1e-5;
  vortex::EvaluationStats ref;
  const vortex_stats stats = equals_cpp(p, cpp, o, ref);
  EXPECT_EQ(stats.tolerance, 1e-5);
  EXPECT_EQ(stats.order, ref.tree.order);
  EXPECT_EQ(stats.theta, ref.tree.theta);
  EXPECT_EQ(stats.precision, VORTEX_PRECISION_FLOAT);
  o.tolerance = -1;
  expect_rejected(o, "tolerance");
}

TEST(CApi, UniformOrderEqualsTheCppOptionAndIsReported) {
  const vortex::ParticleSet p = vortex::random_cube(3000, 13);
  for (int uniform : {0, 1}) {
    vortex::SolverOptions cpp;
    cpp.backend = vortex::Backend::Cpu;
    cpp.tree.uniform_order = uniform == 1;
    vortex_options o = cpu_tree();
    o.uniform_order = uniform;
    vortex::EvaluationStats ref;
    EXPECT_EQ(equals_cpp(p, cpp, o, ref).uniform_order, uniform);
  }
  vortex_options o = cpu_tree();
  o.uniform_order = 2;
  expect_rejected(o, "uniform_order");
  EXPECT_EQ(vortex_c_api_version(), 5);
}

// A thread count past the limit is refused when the handle is made, before any thread starts.
TEST(CApi, ThreadCountAboveTheLimit) {
  EXPECT_EQ(VORTEX_MAX_THREADS, vortex::kMaxThreads);
  vortex_options o = cpu_tree();
  o.threads = 100000;
  expect_rejected(o, "threads");
  EXPECT_NE(std::string(vortex_last_error()).find("100000"), std::string::npos);
  EXPECT_NE(std::string(vortex_last_error()).find(std::to_string(VORTEX_MAX_THREADS)),
            std::string::npos);
  o.threads = VORTEX_MAX_THREADS + 1;
  expect_rejected(o, "threads");
  o.threads = -1;
  expect_rejected(o, "threads");
  o.threads = VORTEX_MAX_THREADS;
  Handle h(o);
  EXPECT_NE(h.solver, nullptr);
}

TEST(CApi, BadOptionsAndMissingCuda) {
  vortex_options o = cpu_tree();
  o.order = 99;
  vortex_solver* solver = reinterpret_cast<vortex_solver*>(&o);
  EXPECT_EQ(vortex_solver_create(&o, &solver), VORTEX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(solver, nullptr);
  EXPECT_NE(std::string(vortex_last_error()).find("order"), std::string::npos)
      << vortex_last_error();
  o = cpu_tree();
  o.core = 9;
  EXPECT_EQ(vortex_solver_create(&o, &solver), VORTEX_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(vortex_last_error()).find("core"), std::string::npos);
  if (vortex_cuda_available()) GTEST_SKIP() << "a CUDA device is present";
  o = cpu_tree();
  o.backend = VORTEX_BACKEND_CUDA;
  Handle h(o);
  const vortex::ParticleSet p = vortex::random_cube(20, 17);
  std::vector<double> u(3 * p.size());
  const vortex_field f = vortex_field_interleaved(VORTEX_FLOAT64, u.data(), nullptr);
  const vortex_sources s =
      vortex_sources_separate(p.size(), VORTEX_FLOAT64, p.x.data(), p.y.data(), p.z.data(),
                              p.gx.data(), p.gy.data(), p.gz.data(), p.sigma.data());
  EXPECT_EQ(vortex_evaluate(h.solver, &s, nullptr, &f), VORTEX_ERROR_UNAVAILABLE);
  EXPECT_NE(std::string(vortex_last_error()).find("cuda"), std::string::npos);
}

}  // namespace
