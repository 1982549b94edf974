#pragma once
// Forces on a body at rest from the rate of change of the linear impulse (Wu 1981;
// docs/methods/bodies.md section 5): F = -rho dI/dt with I = 1/2 sum_p x_p x Gamma_p + 1/2 sum_j
// A_j c_j x gamma_j, here per unit density and by the difference over one step (central at the
// step's midpoint). The jump of I at t = 0+ (the added-mass impulse of the impulsive start) is not
// a drag and is reported apart.

#include <array>

#include "vortex/math/vec3.hpp"

namespace vortex::bodies {

struct ForceCoefficients {
  Vec3 force;     // per unit density
  double cd = 0;  // force . e / (1/2 U^2 A_ref)
  double cl = 0;  // along the lift direction
};

// The unit vector along `axis` with its component along the stream removed (the lift direction);
// when the axis is parallel to the stream, the first coordinate axis so treated.
Vec3 lift_direction(const Vec3& stream, const Vec3& axis);

// Force and coefficients from the impulse at the start and end of an interval dt.
ForceCoefficients force_from_impulse(const Vec3& impulse_before, const Vec3& impulse_after,
                                     double dt, const Vec3& stream, const Vec3& lift_axis,
                                     double reference_area);
// The coefficients of a force (from another route: SurfacePressure's).
ForceCoefficients force_coefficients(const Vec3& force, const Vec3& stream, const Vec3& lift_axis,
                                     double reference_area);

// The impulse budget of one step of length dt, per unit density: what the body took by the impulse
// route, -(I_after - I_before - correction) (the impulse that reflections, push-outs and merges
// added to the particles left out), against what the wall's forces give over the step,
// wall_force dt (the pressure's mean over the step plus the friction); relative_error compares
// them along the stream, (wall - drop) . e / |drop . e| (NaN where drop . e is zero).
struct ImpulseBudget {
  Vec3 impulse_drop, wall_impulse;
  double relative_error = 0;
};
ImpulseBudget impulse_budget(const Vec3& impulse_before, const Vec3& impulse_after,
                             const Vec3& correction, const Vec3& wall_force, double dt,
                             const Vec3& stream);

}  // namespace vortex::bodies
