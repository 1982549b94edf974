// One time step of the flow past a sphere started from rest, through the public body-flow API
// alone: the sheet's potential-flow solve, one step, the force from the impulse.
#include <cstdio>
#include <exception>

#include "vortex/bodies/body_flow.hpp"
#include "vortex/bodies/forces.hpp"
#include "vortex/bodies/mesh_generators.hpp"

int main() {
  try {
    using namespace vortex;
    const bodies::Surface surface = bodies::make_surface(bodies::sphere(4, 0.5), "sphere");
    Solver solver(SolverOptions{});
    bodies::BodyFlowOptions options;
    options.nu = 1.0 / 100;  // Re = U D / nu = 100
    options.spacing = 0.05;
    bodies::BodyFlow flow(surface, bodies::BemOptions{}, solver, options);
    ParticleSet particles;
    flow.solve_sheet(particles);
    const bodies::Vec3 before = flow.impulse(particles);
    const double dt = 0.01;
    const bodies::BodyStepStats stats = flow.step(particles, dt);
    const bodies::Vec3 stream{1, 0, 0};
    const bodies::ForceCoefficients f = bodies::force_from_impulse(
        before, flow.impulse(particles), dt, stream, bodies::lift_direction(stream, {0, 0, 1}),
        3.14159265358979 * 0.25);
    std::printf("%zu particles shed, sheet residual %.2e, cd %.3f\n", stats.shed,
                flow.sheet_stats().residual, f.cd);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sphere_step: %s\n", e.what());
    return 1;
  }
  return 0;
}
