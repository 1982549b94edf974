// Solver::evaluate_on_device: particles and results in GPU memory give the same field, bit for
// bit, as the host arrays through Solver::evaluate (the same device-built treecode after the
// upload); bad entries and host pointers are refused with their names. Skips without a GPU.

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "support/reference.hpp"

#include "vortex/generators.hpp"
#include "vortex/gpu/buffer.hpp"
#include "vortex/solver.hpp"
#include "vortex/tolerance.hpp"

namespace vortex {
namespace {

// One device copy of a host array.
struct DeviceArray {
  gpu::DeviceBuffer<double> buffer;
  explicit DeviceArray(const std::vector<double>& v) : buffer(v.size()) {
    cudaMemcpy(buffer.data(), v.data(), v.size() * sizeof(double), cudaMemcpyHostToDevice);
  }
  explicit DeviceArray(std::size_t n) : buffer(n) {}
  std::vector<double> host(std::size_t n) const {
    std::vector<double> v(n);
    cudaMemcpy(v.data(), buffer.data(), n * sizeof(double), cudaMemcpyDeviceToHost);
    return v;
  }
};

struct DeviceParticles {
  std::vector<DeviceArray> arrays;
  explicit DeviceParticles(const ParticleSet& p) {
    for (const auto* v : {&p.x, &p.y, &p.z, &p.gx, &p.gy, &p.gz, &p.sigma}) arrays.emplace_back(*v);
  }
  DeviceSources sources(std::size_t n) const {
    DeviceSources s;
    s.x = arrays[0].buffer.data(), s.y = arrays[1].buffer.data(), s.z = arrays[2].buffer.data();
    s.gx = arrays[3].buffer.data(), s.gy = arrays[4].buffer.data(), s.gz = arrays[5].buffer.data();
    s.sigma = arrays[6].buffer.data();
    s.n = n;
    return s;
  }
  DeviceTargets targets(std::size_t n) const {
    DeviceTargets t;
    t.x = arrays[0].buffer.data(), t.y = arrays[1].buffer.data(), t.z = arrays[2].buffer.data();
    t.n = n;
    return t;
  }
};

struct DeviceField {
  std::vector<DeviceArray> arrays;
  explicit DeviceField(std::size_t n) {
    for (int c = 0; c < 12; ++c) arrays.emplace_back(n);
  }
  DeviceResults results() const {
    DeviceResults r;
    for (int c = 0; c < 3; ++c) r.u[c] = arrays[c].buffer.data();
    for (int c = 0; c < 9; ++c) r.du[c] = arrays[3 + c].buffer.data();
    return r;
  }
};

SolverOptions cuda_tree() {
  SolverOptions o;
  o.backend = Backend::Cuda;
  o.method = Method::Tree;
  return o;
}

TEST(DeviceArrays, SameFieldAsHostArraysBitForBit) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  // A cube, a Plummer sphere and a thin ring (a filament of 200,000 whose cores span 64 spacings:
  // the layout's dimension makes its defaults double, docs/methods/tolerance.md).
  RingOptions filament;
  filament.layers = 0;
  filament.stations = 200000;
  filament.core_radius = 0.001;  // sigma = overlap core_radius / 0.5 = 0.002
  filament.overlap = 1;
  for (const int set : {0, 1, 2}) {
    const ParticleSet p = set == 2 ? vortex_ring(filament)
                                   : (set == 1 ? plummer_sphere(30000, 3) : random_cube(30000, 3));
    const std::size_t n = p.size();
    const DeviceParticles d(p);
    for (const bool gradient : {false, true}) {
      Solver host(cuda_tree()), device(cuda_tree());
      const VelocityField expected = host.evaluate(p, gradient);
      const DeviceField out(n);
      const EvaluationStats stats =
          device.evaluate_on_device(d.sources(n), d.targets(n), gradient, out.results());
      // The same parameters: the device's layout and offsets summary equals the host's.
      EXPECT_EQ(stats.tree.order, expected.stats.tree.order);
      EXPECT_EQ(stats.tree.theta, expected.stats.tree.theta);
      EXPECT_EQ(stats.tree.source_bucket, expected.stats.tree.source_bucket);
      EXPECT_EQ(stats.precision, expected.stats.precision);
      if (set == 2) EXPECT_EQ(stats.precision, "double");
      EXPECT_EQ(stats.tree_build, "device");
      for (int c = 0; c < (gradient ? 12 : 3); ++c) {
        const std::vector<double> got = out.arrays[c].host(n);
        const std::vector<double>& want = c < 3 ? expected.u[c] : expected.du[c - 3];
        std::size_t differ = 0;
        for (std::size_t i = 0; i < n; ++i) differ += got[i] != want[i];
        EXPECT_EQ(differ, 0u) << "component " << c << " set " << set;
      }
    }
  }
}

TEST(DeviceArrays, SeparateTargets) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet sources = random_cube(20000, 5), targets = random_cube(7000, 6);
  const DeviceParticles ds(sources), dt(targets);
  Solver host(cuda_tree()), device(cuda_tree());
  const VelocityField expected = host.evaluate(sources, PointsView(targets), true);
  const DeviceField out(targets.size());
  device.evaluate_on_device(ds.sources(sources.size()), dt.targets(targets.size()), true,
                            out.results());
  for (int c = 0; c < 12; ++c) {
    const std::vector<double> got = out.arrays[c].host(targets.size());
    EXPECT_EQ(got, c < 3 ? expected.u[c] : expected.du[c - 3]) << "component " << c;
  }
}

TEST(DeviceArrays, BadEntryIsNamedAndNothingWritten) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ParticleSet p = random_cube(5000, 7);
  p.sigma[1234] = -1.0;
  const DeviceParticles d(p);
  const DeviceField out(p.size());
  cudaMemset(out.arrays[0].buffer.data(), 0, p.size() * sizeof(double));
  Solver solver(cuda_tree());
  try {
    solver.evaluate_on_device(d.sources(p.size()), d.targets(p.size()), false, out.results());
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sigma[1234]"), std::string::npos) << e.what();
  }
  for (double v : out.arrays[0].host(p.size())) ASSERT_EQ(v, 0.0);
}

// The device's result check on device arrays: float cannot hold a core 1e-20 of the cloud's size
// (1/sigma^2 overflows it), so Auto computes in double, and float asked for is done again in
// double rather than returning inf. The field against the CPU's double direct sum.
TEST(DeviceArrays, FloatThatCannotHoldTheFieldFallsBackToDouble) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ParticleSet p = random_cube(3000, 15);
  p.sigma[4] = 1e-20;
  p.gx[4] = p.gy[4] = p.gz[4] = 1e-30;
  SolverOptions direct;
  direct.backend = Backend::Cpu;
  direct.method = Method::Direct;
  const VelocityField ref = Solver(direct).evaluate(p, true);
  const DeviceParticles d(p);
  for (Precision precision : {Precision::Auto, Precision::Float}) {
    SCOPED_TRACE(to_string(precision));
    SolverOptions o = cuda_tree();
    o.precision = precision;
    o.tolerance = 1e-3;  // where Auto would pick float for its rounding alone
    const DeviceField out(p.size());
    const EvaluationStats stats =
        Solver(o).evaluate_on_device(d.sources(p.size()), d.targets(p.size()), true, out.results());
    EXPECT_EQ(stats.precision, "double");
    VelocityField f;
    f.resize(p.size(), true);
    for (int c = 0; c < 3; ++c) f.u[c] = out.arrays[c].host(p.size());
    for (int c = 0; c < 9; ++c) f.du[c] = out.arrays[3 + c].host(p.size());
    EXPECT_LT(testing::mean_relative_velocity(f, ref), 1e-3);
    EXPECT_LT(testing::mean_relative_gradient(f, ref), 1e-3);
  }
}

// A field beyond double's range (a strong singular particle seen from 1e-10 away) is an error that
// names the target and component, never an inf written to the caller's arrays.
TEST(DeviceArrays, AFieldBeyondDoublesRangeIsAnError) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  ParticleSet p = random_cube(3000, 14);
  p.gz[7] = 1e280;  // Gamma / sigma^3 within the accepted range
  ParticleSet t;
  t.push_back(p.x[3], p.y[3], p.z[3], 0, 0, 0, 1);
  t.push_back(p.x[7] + 1e-10, p.y[7], p.z[7], 0, 0, 0, 1);
  const DeviceParticles ds(p), dt(t);
  SolverOptions o = cuda_tree();
  o.core = Core::Singular;
  const DeviceField out(t.size());
  try {
    Solver(o).evaluate_on_device(ds.sources(p.size()), dt.targets(t.size()), true, out.results());
    FAIL() << "accepted";
  } catch (const std::overflow_error& e) {
    EXPECT_NE(std::string(e.what()).find("at target 1 is not finite"), std::string::npos)
        << e.what();
  }
}

TEST(DeviceArrays, HostPointersAndHostOptionsAreRefused) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p = random_cube(1000, 8);
  const DeviceParticles d(p);
  const DeviceField out(p.size());
  DeviceSources s = d.sources(p.size());
  s.gy = p.gy.data();  // host memory
  Solver solver(cuda_tree());
  try {
    solver.evaluate_on_device(s, d.targets(p.size()), false, out.results());
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("sources gy is not device memory"), std::string::npos)
        << e.what();
  }
  SolverOptions host_trees = cuda_tree();
  host_trees.tree_build = TreeBuild::Host;
  Solver host_built(host_trees);
  EXPECT_THROW(
      host_built.evaluate_on_device(d.sources(p.size()), d.targets(p.size()), false, out.results()),
      std::invalid_argument);
}

}  // namespace
}  // namespace vortex
