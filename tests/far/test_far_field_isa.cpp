// The CPU far field's loop compiled for each instruction set (the library's own, and in a portable
// build the AVX2 and AVX-512 copies chosen at run time): every copy the processor runs gives the
// velocity and gradient of the library's own to rounding, and the treecode stays within its error
// of the direct sum.

#include <gtest/gtest.h>

#include <cmath>

#include "far/far_field_isa.hpp"
#include "support/cases.hpp"
#include "support/reference.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

using detail::FarIsa;

VelocityField tree(const ParticleSet& p, Precision precision) {
  SolverOptions o;
  o.method = Method::Tree;
  o.backend = Backend::Cpu;
  o.precision = precision;
  o.tree.order = 8;
  o.tree.theta = 0.5;
  o.tree.target_bucket = 32;
  o.tree.source_bucket = 32;
  return Solver(o).evaluate(p, true);
}

TEST(FarFieldIsa, EveryCopyMatchesTheLibrarysOwn) {
  const ParticleSet p = testing::random_cube(4000, 41);
  SolverOptions direct;
  direct.method = Method::Direct;
  direct.backend = Backend::Cpu;
  const VelocityField ref = Solver(direct).evaluate(p, true);
  for (Precision precision : {Precision::Double, Precision::Float}) {
    detail::limit_far_field_isa(FarIsa::Build);
    const VelocityField own = tree(p, precision);
    // p = 8, theta = 0.5: the bound theta^(p+1) / (1 - theta) of the order sweep in
    // test_solver_tree, one more power of it for the gradient's extra derivative.
    const double bound_u = std::pow(0.5, 9) / 0.5, bound_du = std::pow(0.5, 8) / 0.5;
    EXPECT_LT(testing::relative_l2_velocity(own, ref), bound_u);
    EXPECT_LT(testing::relative_l2_gradient(own, ref), bound_du);
    // Rounding of the arithmetic (the copies sum the same terms in other lane groupings).
    const double rounding = precision == Precision::Double ? 1e-13 : 1e-6;
    for (FarIsa isa : {FarIsa::Avx2, FarIsa::Avx512}) {
      detail::limit_far_field_isa(isa);
      if (detail::far_field_isa() != isa) continue;  // not in this build or processor
      const VelocityField f = tree(p, precision);
      EXPECT_LT(testing::relative_l2_velocity(f, own), rounding) << int(isa);
      EXPECT_LT(testing::relative_l2_gradient(f, own), rounding) << int(isa);
      EXPECT_LT(testing::relative_l2_velocity(f, ref), bound_u) << int(isa);
      EXPECT_LT(testing::relative_l2_gradient(f, ref), bound_du) << int(isa);
    }
  }
  detail::limit_far_field_isa(FarIsa::Avx512);
}

}  // namespace
}  // namespace vortex
