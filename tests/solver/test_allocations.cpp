// A time-stepping code calls the solver every step with the same sizes: after the first call,
// neither an evaluation nor a time step may allocate. Every C++ allocation of the process goes
// through the counting operator new below (the OpenMP runtime's own bookkeeping does not).

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>
#include <string>

#include "vortex/generators.hpp"
#include "vortex/out_of_memory.hpp"
#include "vortex/solver.hpp"
#include "vortex/time_integration.hpp"
#include "vortex/vrm.hpp"

namespace {
std::atomic<long> g_allocations{0};
std::atomic<long> g_fail_after{-1};  // >= 0: that many more allocations succeed, then one fails
}  // namespace

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (g_fail_after.load() >= 0 && g_fail_after.fetch_sub(1) == 0) throw std::bad_alloc();
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) {
  return operator new(n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace vortex {
namespace {

// Allocations made by fn().
template <class Fn>
long allocations_of(Fn&& fn) {
  const long before = g_allocations.load();
  fn();
  return g_allocations.load() - before;
}

struct Case {
  Method method;
  Precision precision;
};

class SolverAllocations : public ::testing::TestWithParam<Case> {};

TEST_P(SolverAllocations, RepeatedEvaluationAllocatesNothing) {
  const ParticleSet p = random_cube(3000, 21);
  SolverOptions o;
  o.backend = Backend::Cpu;
  o.method = GetParam().method;
  o.precision = GetParam().precision;
  Solver solver(o);
  VelocityField out;
  // The counter must see the first call's allocations, or the checks below prove nothing.
  EXPECT_GT(allocations_of([&] { solver.evaluate(p, true, out); }), 0);
  for (int call = 0; call < 3; ++call)
    EXPECT_EQ(allocations_of([&] { solver.evaluate(p, true, out); }), 0) << "call " << call + 2;
  EXPECT_EQ(allocations_of([&] { solver.evaluate(p, PointsView(p), false, out); }), 0);
}

INSTANTIATE_TEST_SUITE_P(Cpu, SolverAllocations,
                         ::testing::Values(Case{Method::Tree, Precision::Double},
                                           Case{Method::Tree, Precision::Float},
                                           Case{Method::Direct, Precision::Double}));

TEST(OutOfMemory, NamesTheProblemAndLeavesTheFieldEmpty) {
  const ParticleSet p = random_cube(3000, 22);
  for (Method method : {Method::Tree, Method::Direct}) {
    SolverOptions o;
    o.backend = Backend::Cpu;
    o.method = method;
    Solver solver(o);
    VelocityField out;
    g_fail_after = 0;  // the evaluation's first allocation fails (outside any parallel region)
    try {
      solver.evaluate(p, true, out);
      FAIL() << "no exception";
    } catch (const vortex::OutOfMemory& e) {
      EXPECT_NE(std::string(e.what()).find("3000 sources at 3000 targets"), std::string::npos)
          << e.what();
    }
    g_fail_after = -1;
    EXPECT_EQ(out.size(), 0u);
    // The solver recovers: the same call succeeds afterwards.
    solver.evaluate(p, true, out);
    EXPECT_EQ(out.size(), p.size());
  }
}

TEST(TimeStepAllocations, StepsAfterTheFirstAllocateNothing) {
  RingOptions ring;
  ring.layers = 1;
  ParticleSet p = vortex_ring(ring);
  SolverOptions o;
  o.backend = Backend::Cpu;
  Solver solver(o);
  TimeIntegratorOptions t;
  t.scheme = TimeScheme::Heun;
  TimeIntegrator integrator(solver, t);
  EXPECT_GT(allocations_of([&] { integrator.step(p, 1e-3); }), 0);
  // The particles move, so the trees and lists are rebuilt from new positions every stage.
  for (int step = 0; step < 10; ++step)
    EXPECT_EQ(allocations_of([&] { integrator.step(p, 1e-3); }), 0) << "step " << step + 2;
}

TEST(VrmAllocations, RepeatedStepsInAWorkspaceAllocateNothing) {
  // A lattice blob whose edge asks for insertions; every call starts from the same particles.
  ParticleSet start;
  for (int i = -6; i <= 6; ++i)
    for (int j = -6; j <= 6; ++j)
      for (int k = -6; k <= 6; ++k) {
        const double r2 = i * i + j * j + k * k;
        if (r2 <= 36) start.push_back(i, j, k, 0, 0, std::exp(-r2 / 8), 1);
      }
  VrmOptions vrm;
  vrm.spacing = 1;
  VrmWorkspace workspace;
  ParticleSet p = start;
  VrmStats stats;
  EXPECT_GT(allocations_of([&] { stats = vrm_diffuse(p, 1, 0.125, vrm, workspace); }), 0);
  EXPECT_GT(stats.inserted, 0u);
  const std::size_t size = p.size();
  for (int call = 0; call < 5; ++call) {
    p = start;  // the arrays keep their capacity
    EXPECT_EQ(allocations_of([&] { vrm_diffuse(p, 1, 0.125, vrm, workspace); }), 0)
        << "call " << call + 2;
    EXPECT_EQ(p.size(), size);
  }
}

}  // namespace
}  // namespace vortex
