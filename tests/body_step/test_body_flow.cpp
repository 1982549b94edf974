// A step of the flow past a sphere at a coarse resolution: particles end in the fluid, the total
// vorticity of particles and sheet stays near zero, the impulse grows against the stream (a
// positive drag), the stages' times nest; the growth guard's limits; forces from the impulse;
// checkpoints read back what was written and reject damaged files.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

#include "support/scratch_dir.hpp"
#include "vortex/bodies/bem_solver.hpp"
#include "vortex/bodies/body_flow.hpp"
#include "vortex/bodies/checkpoint.hpp"
#include "vortex/bodies/forces.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/wall.hpp"
#include "vortex/file_io.hpp"

namespace vortex::bodies {
namespace {

TEST(BodyFlow, StepKeepsParticlesInTheFluidAndConservesVorticity) {
  const Surface s = make_surface(sphere(4, 0.5));
  BemOptions bem;
  bem.solver.backend = Backend::Cpu;
  SolverOptions so;
  so.backend = Backend::Auto;  // the GPU where there is one
  Solver solver(so);
  BodyFlowOptions o;
  o.nu = 1.0 / 50;
  o.spacing = 0.1;
  o.control.merge_distance = 0.5;
  BodyFlow flow(s, bem, solver, o);
  ParticleSet p;
  flow.solve_sheet(p);
  const Vec3 i0 = flow.impulse(p);
  EXPECT_NEAR(i0.x / (-2 * M_PI * 0.125), 1.0, 0.05);
  const double dt = 0.05;
  Vec3 before = i0;
  const auto particles_total = [&]() {
    Vec3 total;
    for (std::size_t i = 0; i < p.size(); ++i) total += Vec3{p.gx[i], p.gy[i], p.gz[i]};
    return total;
  };
  for (int n = 0; n < 2; ++n) {
    const Vec3 total_before = particles_total();
    const BodyStepStats st = flow.step(p, dt);
    // The particles' total vorticity changes by the shed sheet and the stretching alone.
    const Vec3 change = particles_total() - total_before;
    const Vec3 budget = st.vorticity_shed + st.vorticity_stretch;
    double sum_strength = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
      sum_strength += std::sqrt(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]);
    EXPECT_GT(norm(st.vorticity_shed), 0);
    EXPECT_LT(norm(change - budget), 1e-12 * sum_strength)
        << "step " << n << ": change " << change.x << ' ' << change.y << ' ' << change.z;
    EXPECT_GT(st.shed, 0u);
    // The second diffusion sub-step, two stages, the final one: the first sub-step starts from the
    // particles that the sheet was last solved for (by solve_sheet, then by the step's end).
    EXPECT_EQ(st.bem_solves, 1 + 2 + 1);
    EXPECT_LT(st.bem_residual_max, 1e-6);
    // The stage times nest: the velocity evaluations within the convection, the VRM and the
    // particle control within the diffusion, the disjoint stages within the step.
    EXPECT_GT(st.seconds_velocity, 0);
    EXPECT_LE(st.seconds_velocity, st.seconds_convect);
    EXPECT_LE(st.seconds_vrm + st.seconds_control + st.seconds_shed, st.seconds_diffuse);
    EXPECT_GT(st.seconds_shed, 0);
    EXPECT_GT(st.seconds_keep_in_fluid, 0);
    EXPECT_LE(st.seconds_keep_in_fluid, st.seconds_convect + st.seconds_diffuse);
    EXPECT_LE(st.seconds_bem + st.seconds_convect + st.seconds_diffuse, st.seconds_total);
    // The boundary-element solves' parts within their time; GMRES made products.
    EXPECT_GT(st.bem_products, 0);
    EXPECT_GT(st.seconds_bem_products, 0);
    EXPECT_LE(st.seconds_bem_wall + st.seconds_bem_rhs + st.seconds_bem_products +
                  st.seconds_bem_preconditioner,
              st.seconds_bem);
    double strength = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const WallPoint w = flow.wall().closest({p.x[i], p.y[i], p.z[i]});
      EXPECT_GE(w.distance, 0.2 * o.spacing * (1 - 1e-9)) << "particle " << i;
      strength += std::sqrt(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]);
    }
    EXPECT_LT(norm(flow.total_vorticity(p)), 1e-3 * strength);
    const Vec3 after = flow.impulse(p);
    const ForceCoefficients c =
        force_from_impulse(before, after, dt, {1, 0, 0}, {0, 0, 1}, M_PI / 4);
    EXPECT_GT(c.cd, 0) << "step " << n;
    EXPECT_LT(std::abs(c.cl), 0.05 * c.cd);
    before = after;
  }
  EXPECT_THROW(flow.step(p, 0), std::invalid_argument);
  BodyFlowOptions bad = o;
  bad.nu = 0;
  EXPECT_THROW(BodyFlow(s, bem, solver, bad), std::invalid_argument);
}

// A step from the sheet solved for its particles gives, bit for bit, what a step that solves it
// again gives (GMRES stops at once at a warm start that meets its tolerance), one solve fewer.
TEST(BodyFlow, StepFromTheSolvedSheetEqualsOneThatSolvesAgain) {
  const Surface s = make_surface(sphere(4, 0.5));
  BemOptions bem;
  bem.solver.backend = Backend::Cpu;
  SolverOptions so;
  so.backend = Backend::Cpu;
  Solver solver_a(so), solver_b(so);
  BodyFlowOptions o;
  o.nu = 1.0 / 50;
  o.spacing = 0.1;
  BodyFlow a(s, bem, solver_a, o), b(s, bem, solver_b, o);
  ParticleSet pa, pb;
  a.solve_sheet(pa);
  b.solve_sheet(pb);
  a.step(pa, 0.05);
  b.step(pb, 0.05);
  ASSERT_GT(pb.size(), 0u);
  // b is told that its sheet belongs to another set, so its next step solves it again.
  b.set_sheet(b.bem().gamma(), ParticleSet{});
  const BodyStepStats sa = a.step(pa, 0.05);
  const BodyStepStats sb = b.step(pb, 0.05);
  EXPECT_EQ(sa.bem_solves + 1, sb.bem_solves);
  EXPECT_EQ(sa.bem_iterations, sb.bem_iterations);
  ASSERT_EQ(pa.size(), pb.size());
  EXPECT_EQ(digest(pa), digest(pb));
  EXPECT_EQ(a.bem().gamma(), b.bem().gamma());
}

// The growth guard's limit: above 1 and finite, or 0 (never); anything else is refused by name.
TEST(BodyFlow, MaxGrowthOutsideItsRangeIsRefused) {
  BodyFlowOptions o;
  o.nu = 0.02;
  o.spacing = 0.1;
  EXPECT_NO_THROW(validate(o));  // the default, 100
  for (const double good : {0.0, 1.0001, 1e300}) {
    o.max_growth = good;
    EXPECT_NO_THROW(validate(o)) << good;
  }
  for (const double bad : {-1.0, 0.5, 1.0, std::nan(""), HUGE_VAL}) {
    o.max_growth = bad;
    try {
      validate(o);
      ADD_FAILURE() << "accepted max_growth " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("max_growth must be above 1 and finite"),
                std::string::npos)
          << e.what();
    }
  }
}

TEST(Forces, CoefficientsFromTheImpulse) {
  // I decreasing along the stream by 0.1 per unit time: F = 0.1 along x.
  const ForceCoefficients c =
      force_from_impulse({1, 0, 0}, {0.99, 0, -0.02}, 0.1, {2, 0, 0}, {0, 0, 1}, 0.5);
  EXPECT_NEAR(c.force.x, 0.1, 1e-12);
  EXPECT_NEAR(c.cd, 0.1 / (0.5 * 4 * 0.5), 1e-12);
  EXPECT_NEAR(c.cl, 0.2 / (0.5 * 4 * 0.5), 1e-12);
  const Vec3 l = lift_direction({std::cos(1.0), 0, std::sin(1.0)}, {0, 0, 1});
  EXPECT_NEAR(dot(l, {std::cos(1.0), 0, std::sin(1.0)}), 0, 1e-12);
  EXPECT_GT(l.z, 0);
  EXPECT_NEAR(norm(lift_direction({0, 0, 1}, {0, 0, 1}) - Vec3{1, 0, 0}), 0, 1e-12);
  EXPECT_THROW(force_from_impulse({}, {}, 0, {1, 0, 0}, {0, 0, 1}, 1), std::invalid_argument);
}

TEST(Forces, ImpulseBudgetLeavesOutTheCorrectionsAndComparesAlongTheStream) {
  // The impulse falls by (0.04, 0, 0.01) over dt = 0.1, of which the particles' corrections added
  // (0.005, 0, 0) back: the body took (0.045, 0, 0.01). Wall forces of (0.4, 0, 0.3) give (0.04,
  // 0, 0.03): 0.005 short along the stream x.
  const ImpulseBudget b =
      impulse_budget({1, 0, 0}, {0.96, 0, -0.01}, {0.005, 0, 0}, {0.4, 0, 0.3}, 0.1, {3, 0, 0});
  EXPECT_NEAR(norm(b.impulse_drop - Vec3{0.045, 0, 0.01}), 0, 1e-15);
  EXPECT_NEAR(norm(b.wall_impulse - Vec3{0.04, 0, 0.03}), 0, 1e-15);
  EXPECT_NEAR(b.relative_error, -0.005 / 0.045, 1e-13);
  EXPECT_TRUE(std::isnan(impulse_budget({}, {}, {}, {1, 0, 0}, 0.1, {1, 0, 0}).relative_error));
  EXPECT_THROW(impulse_budget({}, {}, {}, {}, 0, {1, 0, 0}), std::invalid_argument);
}

class Checkpoints : public vortex::testing::ScratchDirTest {
 protected:
  Checkpoints() : ScratchDirTest("bodies-checkpoint") {}
};

TEST_F(Checkpoints, RoundTripAndDamagedFiles) {
  BodyCheckpoint c;
  c.step = 17;
  c.time = 0.34;
  c.panels = 2;
  c.particles.push_back(1, 2, 3, 0.1, 0.2, 0.3, 0.05);
  c.particles.push_back(-1, 0.5, 3, 0.4, 0.2, -0.3, 0.05);
  c.gamma = {1, 2, 3, 4};
  c.impulse = {0.1, 0.2, 0.3};
  c.impulse_t0 = {-0.7, 0, 0};
  write_checkpoint(path("c.bin"), c);
  const BodyCheckpoint r = read_checkpoint(path("c.bin"));
  EXPECT_EQ(r.step, 17);
  EXPECT_EQ(r.time, 0.34);
  EXPECT_EQ(r.particles.gy, c.particles.gy);
  EXPECT_EQ(r.gamma, c.gamma);
  EXPECT_EQ(r.impulse, c.impulse);
  EXPECT_EQ(r.impulse_t0, c.impulse_t0);
  const std::string data = read_file(path("c.bin"));
  write_text("short.bin", data.substr(0, data.size() - 5));
  EXPECT_THROW(read_checkpoint(path("short.bin")), FileError);
  write_text("other.bin", "not a checkpoint at all, just text");
  EXPECT_THROW(read_checkpoint(path("other.bin")), FileError);
  EXPECT_THROW(read_checkpoint(path("missing.bin")), FileError);
}

}  // namespace
}  // namespace vortex::bodies
