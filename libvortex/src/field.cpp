#include "vortex/field.hpp"

namespace vortex {

void VelocityField::resize(std::size_t n, bool gradient) {
  for (auto& c : u) c.assign(n, 0.0);
  for (auto& c : du) c.assign(gradient ? n : 0, 0.0);
  has_gradient = gradient;
}

std::array<double, 3> VelocityField::vorticity(std::size_t i) const {
  // omega = (du_z/dy - du_y/dz, du_x/dz - du_z/dx, du_y/dx - du_x/dy)
  return {du[7][i] - du[5][i], du[2][i] - du[6][i], du[3][i] - du[1][i]};
}

}  // namespace vortex
