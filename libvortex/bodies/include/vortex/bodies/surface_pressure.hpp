#pragma once
// The pressure on a body at rest from the vorticity its wall creates (docs/methods/bodies.md
// section 5): at a no-slip wall at rest the Navier-Stokes equations leave grad p = -mu curl omega,
// whose tangential part is the flux of vorticity into the fluid (Lighthill), grad_s p = rho n x
// sigma. Each diffusion sub-step sheds the whole sheet, so sigma over a step is the sheet shed in
// it over dt. The pressure is the surface field, linear on each panel, whose gradient is closest
// to the given one in the area-weighted least-squares sense (a surface Poisson problem: the
// cotangent Laplacian, factored once), up to a constant that no force sees.
//
//   SurfacePressure pressure(surface);
//   const std::vector<double>& p = pressure.solve(gradient);  // per vertex, area-weighted mean 0
//   Vec3 f = pressure.force();                                // -integral p n dS

#include <memory>
#include <vector>

#include "vortex/bodies/surface.hpp"
#include "vortex/math/vec3.hpp"

namespace vortex::bodies {

class SurfacePressure {
 public:
  explicit SurfacePressure(const Surface& surface);
  ~SurfacePressure();
  SurfacePressure(SurfacePressure&&) noexcept;
  SurfacePressure& operator=(SurfacePressure&&) noexcept;

  // The pressure per mesh vertex whose gradient on each panel is closest to `gradient` (one
  // tangential vector per panel; a normal part is ignored), its area-weighted mean zero.
  const std::vector<double>& solve(const std::vector<Vec3>& gradient);
  // The pressure's mean over each panel, and the force -integral p n dS of the last solve.
  std::vector<double> panel_means() const;
  Vec3 force() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The pressure gradient of a step from the sheets shed in it: rho n_j x (sum of the shed
// gamma_j) / dt per panel, per unit density.
std::vector<Vec3> pressure_gradient_from_shedding(const Surface& surface,
                                                  const std::vector<Vec3>& shed_gamma, double dt);

}  // namespace vortex::bodies
