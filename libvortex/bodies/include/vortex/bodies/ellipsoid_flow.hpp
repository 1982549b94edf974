#pragma once
// The exact potential flow of a uniform stream U past an ellipsoid at rest (semi-axes a, b, c
// along x, y, z), the reference of the boundary-element solve (docs/methods/bodies.md section 1):
// the slip on the surface is u+ = sum_i (1 + k_i) U_i (e_i - n_i n) and the sheet gamma = n x u+,
// with k_i = alpha_i / (2 - alpha_i) and
//   alpha_i = abc int_0^inf dl / ((s_i^2 + l) sqrt((a^2 + l)(b^2 + l)(c^2 + l))).
// A sphere has alpha = 2/3, k = 1/2, |gamma| = 1.5 U sin(theta).

#include <array>
#include <vector>

#include "vortex/bodies/surface.hpp"
#include "vortex/math/vec3.hpp"

namespace vortex::bodies {

class EllipsoidFlow {
 public:
  EllipsoidFlow(double a, double b, double c);

  const std::array<double, 3>& alpha() const { return alpha_; }
  const std::array<double, 3>& k() const { return k_; }

  // The point of the ellipsoid on the ray from the centre through x, and the outward unit normal
  // there.
  Vec3 project(const Vec3& x) const;
  Vec3 normal(const Vec3& on_surface) const;
  // Slip u+ and sheet gamma at a point of the surface.
  Vec3 slip(const Vec3& on_surface, const Vec3& stream) const;
  Vec3 sheet(const Vec3& on_surface, const Vec3& stream) const;
  // Linear impulse of the sheet (per unit density): I_i = -(1 + k_i) V U_i, the body's volume V
  // plus the added mass k_i V along each axis (the jump of the impulse at an impulsive start).
  Vec3 impulse(const Vec3& stream) const;

 private:
  double axes_[3];
  std::array<double, 3> alpha_{}, k_{};
};

// Error of a solved sheet (2 coefficients per panel) against the exact one at each panel's
// centroid projected on the ellipsoid, relative to the largest exact |gamma|.
struct SheetError {
  double mean = 0;
  double max = 0;
};
SheetError sheet_error(const Surface& s, const std::vector<double>& gamma,
                       const EllipsoidFlow& exact, const Vec3& stream);

}  // namespace vortex::bodies
