// The pressure on the wall from the vorticity it creates over a step (docs/methods/bodies.md
// section 5): each diffusion sub-step sheds the whole sheet, so the sheets shed in a step over dt
// are the flux sigma of vorticity into the fluid, and grad_s p = n x sigma (per unit density).

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

std::vector<double> BodyFlow::surface_pressure() const {
  return stages_->pressure.panel_means();
}

}  // namespace vortex::bodies
