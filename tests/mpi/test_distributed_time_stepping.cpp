// The time-stepping toolkit on ranks: a TimeIntegrator whose evaluator is the distributed solver
// moves each rank's share of an inviscid ring as one rank's integrator moves the whole ring (its
// speed and linear impulse to 1e-10 after 12 Heun steps).

#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "mpi_cases.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/generators.hpp"
#include "vortex/mpi/distributed_solver.hpp"
#include "vortex/solver.hpp"
#include "vortex/time_integration.hpp"

namespace vortex::testing {
namespace {

// The ring's linear impulse and its |Gamma|-weighted mean z (its position along its axis), over
// every rank's particles.
std::array<double, 5> ring_measures(const ParticleSet& p) {
  const Diagnostics d = compute_diagnostics(p);
  std::array<double, 5> m = {d.linear_impulse[0], d.linear_impulse[1], d.linear_impulse[2], 0, 0};
  for (std::size_t i = 0; i < p.size(); ++i) {
    m[3] += p.z[i] * p.strength(i);
    m[4] += p.strength(i);
  }
  MPI_Allreduce(MPI_IN_PLACE, m.data(), 5, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return m;
}

TEST(DistributedTimeStepping, ARingMovesAsOnOneRank) {
  const ParticleSet ring = vortex_ring(RingOptions{});
  SolverOptions options;
  options.backend = Backend::Cpu;
  const double dt = 0.02;
  const int steps = 12;

  ParticleSet whole = ring;
  Solver one(options);
  TimeIntegrator alone(one);
  for (int k = 0; k < steps; ++k) alone.step(whole, dt);

  ParticleSet mine = subset(ring, dealt(ring.size(), scattered));
  mpi::DistributedSolver distributed(MPI_COMM_WORLD, options);
  TimeIntegrator together([&](const ParticleSet& p, bool gradient, VelocityField& out) {
    distributed.evaluate(SourcesView(p), PointsView(p), gradient, out);
  });
  for (int k = 0; k < steps; ++k) together.step(mine, dt);

  // Every rank holds the whole ring of the one-rank run; its measures are summed once.
  const Diagnostics d = compute_diagnostics(whole);
  double z = 0, s = 0;
  for (std::size_t i = 0; i < whole.size(); ++i) {
    z += whole.z[i] * whole.strength(i);
    s += whole.strength(i);
  }
  const std::array<double, 5> got = ring_measures(mine);
  const double impulse = norm(d.linear_impulse);
  for (int k = 0; k < 3; ++k)
    EXPECT_NEAR(got[k], d.linear_impulse[k], 1e-10 * impulse) << "impulse component " << k;
  const double travelled = z / s - 0.0;  // the ring starts at z = 0
  EXPECT_GT(travelled, 0.01);
  EXPECT_NEAR(got[3] / got[4], z / s, 1e-10 * travelled);
}

}  // namespace
}  // namespace vortex::testing
