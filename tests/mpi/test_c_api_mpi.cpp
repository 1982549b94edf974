// The C interface's distributed solver (vortex_mpi.h) under mpiexec: each rank's share of a set
// through vortex_evaluate equals the one-rank C solver's field of the whole set; errors are
// collective.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "mpi_cases.hpp"
#include "support/reference.hpp"
#include "vortex_mpi.h"

namespace vortex::testing {
namespace {

struct Field {
  std::vector<double> u, du;
  explicit Field(std::size_t n) : u(3 * n), du(9 * n) {}
};

// The field of `p` at its own particles through a C handle.
int evaluate(vortex_solver* solver, ParticleSet& p, Field& f) {
  const vortex_sources s =
      vortex_sources_separate(p.size(), VORTEX_FLOAT64, p.x.data(), p.y.data(), p.z.data(),
                              p.gx.data(), p.gy.data(), p.gz.data(), p.sigma.data());
  const vortex_field out = vortex_field_interleaved(VORTEX_FLOAT64, f.u.data(), f.du.data());
  return vortex_evaluate(solver, &s, nullptr, &out);
}

vortex_options cpu_options() {
  vortex_options o;
  vortex_default_options(&o);
  o.backend = VORTEX_BACKEND_CPU;
  return o;
}

TEST(CApiMpi, EqualsTheOneRankSolverWithACAndAFortranHandle) {
  ParticleSet all = random_cube(6000, 5);
  const std::vector<std::size_t> idx = dealt(all.size(), scattered);
  ParticleSet mine = subset(all, idx);
  const vortex_options options = cpu_options();
  vortex_solver* one = nullptr;
  ASSERT_EQ(vortex_solver_create(&options, &one), VORTEX_OK) << vortex_last_error();
  Field want(all.size());
  ASSERT_EQ(evaluate(one, all, want), VORTEX_OK) << vortex_last_error();
  vortex_solver_destroy(one);
  for (const bool fortran : {false, true}) {
    vortex_solver* distributed = nullptr;
    const int created =
        fortran ? vortex_mpi_solver_create_f(&options, MPI_Comm_c2f(MPI_COMM_WORLD), &distributed)
                : vortex_mpi_solver_create(&options, MPI_COMM_WORLD, &distributed);
    ASSERT_EQ(created, VORTEX_OK) << vortex_last_error();
    Field got(mine.size());
    ASSERT_EQ(evaluate(distributed, mine, got), VORTEX_OK) << vortex_last_error();
    double s[2] = {0, 0};
    for (std::size_t k = 0; k < idx.size(); ++k) {
      for (int c = 0; c < 3; ++c) {
        const double d = got.u[3 * k + c] - want.u[3 * idx[k] + c];
        s[0] += d * d;
        s[1] += want.u[3 * idx[k] + c] * want.u[3 * idx[k] + c];
      }
      for (int c = 0; c < 9; ++c) {
        const double d = got.du[9 * k + c] - want.du[9 * idx[k] + c];
        s[0] += d * d;
        s[1] += want.du[9 * idx[k] + c] * want.du[9 * idx[k] + c];
      }
    }
    MPI_Allreduce(MPI_IN_PLACE, s, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    EXPECT_LE(std::sqrt(s[0] / s[1]), 1e-12);
    vortex_stats stats;
    ASSERT_EQ(vortex_solver_stats(distributed, &stats), VORTEX_OK);
    EXPECT_EQ(stats.backend, VORTEX_BACKEND_CPU);
    vortex_solver_destroy(distributed);
  }
}

TEST(CApiMpi, BadInputOnOneRankIsAnErrorOnEveryRank) {
  ParticleSet mine = subset(random_cube(3000, 6), dealt(3000, scattered));
  const int last = world_size() - 1;
  if (world_rank() == last) mine.sigma[0] = -1;
  const vortex_options options = cpu_options();
  vortex_solver* solver = nullptr;
  ASSERT_EQ(vortex_mpi_solver_create(&options, MPI_COMM_WORLD, &solver), VORTEX_OK);
  Field f(mine.size());
  f.u[0] = 12345;
  EXPECT_EQ(evaluate(solver, mine, f), VORTEX_ERROR_INVALID_ARGUMENT);
  const std::string m = vortex_last_error();
  EXPECT_NE(m.find("sigma"), std::string::npos) << m;
  if (world_rank() != last)
    EXPECT_NE(m.find("rank " + std::to_string(last)), std::string::npos) << m;
  EXPECT_EQ(f.u[0], 12345);  // the output arrays are left as they were
  vortex_solver_destroy(solver);
  EXPECT_EQ(vortex_mpi_solver_create(nullptr, MPI_COMM_WORLD, &solver),
            VORTEX_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(solver, nullptr);
  EXPECT_EQ(vortex_mpi_solver_create(&options, MPI_COMM_NULL, &solver),
            VORTEX_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace vortex::testing
