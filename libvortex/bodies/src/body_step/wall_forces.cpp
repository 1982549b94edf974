// The forces on the wall apart from the impulse (docs/methods/bodies.md section 5): the pressure
// from the vorticity the wall creates over a step (each diffusion sub-step sheds the whole sheet,
// so the sheets shed in a step over dt are the flux sigma of vorticity into the fluid, and
// grad_s p = n x sigma per unit density), and the skin friction from the vorticity at the wall.

#include "body_step/body_flow_stages.hpp"
#include "vortex/bodies/sheet.hpp"

namespace vortex::bodies {

void BodyFlow::add_shed_sheet() {
  std::vector<Vec3>& shed = stages_->shed;
  if (shed.size() != surface_->size()) return;  // a diffusion sub-step outside a step
  const std::vector<Vec3> gamma = sheet_vectors(*surface_, bem_.gamma());
  for (std::size_t j = 0; j < shed.size(); ++j) shed[j] += gamma[j];
}

void BodyFlow::wall_pressure(double dt, BodyStepStats& stats) {
  SurfacePressure& pressure = stages_->pressure;
  pressure.solve(pressure_gradient_from_shedding(*surface_, stages_->shed, dt));
  stats.pressure_force = pressure.force();
  stages_->shed.clear();
}

void BodyFlow::wall_friction(const ParticleSet& particles, BodyStepStats& stats) {
  if (particles.size() == 0) return;
  VelocityField f;
  solver_->evaluate(particles, PointsView(stages_->centroids), true, f);
  Vec3 force;
  for (std::size_t j = 0; j < surface_->size(); ++j) {
    const Panel& p = surface_->panels[j];
    const auto w = f.vorticity(j);
    const Vec3 omega{w[0], w[1], w[2]};
    // The particles' regularized vorticity at the wall, as it is: with a mirror image of the
    // fluid side (twice it) the sphere's pressure and friction exceed the impulse's drag by a
    // third (docs/journal/2026-11-28-pressure-route.md).
    const Vec3 wall = omega - dot(omega, p.normal) * p.normal;
    force += (options_.nu * p.area) * cross(wall, p.normal);
  }
  stats.friction_force = force;
}

std::vector<double> BodyFlow::surface_pressure() const {
  return stages_->pressure.panel_means();
}

}  // namespace vortex::bodies
