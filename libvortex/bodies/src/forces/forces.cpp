#include "vortex/bodies/forces.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace vortex::bodies {

Vec3 lift_direction(const Vec3& stream, const Vec3& axis) {
  const Vec3 e = normalized(stream);
  for (const Vec3& a : {axis, Vec3{1, 0, 0}, Vec3{0, 1, 0}}) {
    const Vec3 l = a - dot(a, e) * e;
    if (norm(l) > 1e-6 * norm(a)) return normalized(l);
  }
  throw std::invalid_argument("lift_direction: no direction across the stream");
}

ForceCoefficients force_from_impulse(const Vec3& before, const Vec3& after, double dt,
                                     const Vec3& stream, const Vec3& lift_axis,
                                     double reference_area) {
  if (!(dt > 0)) throw std::invalid_argument("force_from_impulse: dt must be positive");
  return force_coefficients((-1 / dt) * (after - before), stream, lift_axis, reference_area);
}

ForceCoefficients force_coefficients(const Vec3& force, const Vec3& stream, const Vec3& lift_axis,
                                     double reference_area) {
  if (!(reference_area > 0))
    throw std::invalid_argument("force coefficients: the reference area must be positive");
  ForceCoefficients c;
  c.force = force;
  const double u = norm(stream);
  const double q = 0.5 * u * u * reference_area;
  c.cd = dot(c.force, normalized(stream)) / q;
  c.cl = dot(c.force, lift_direction(stream, lift_axis)) / q;
  return c;
}

ImpulseBudget impulse_budget(const Vec3& before, const Vec3& after, const Vec3& correction,
                             const Vec3& wall_force, double dt, const Vec3& stream) {
  if (!(dt > 0)) throw std::invalid_argument("impulse_budget: dt must be positive");
  ImpulseBudget b;
  b.impulse_drop = -(after - before - correction);
  b.wall_impulse = dt * wall_force;
  const Vec3 e = normalized(stream);
  const double drop = dot(b.impulse_drop, e);
  b.relative_error = drop != 0 ? dot(b.wall_impulse - b.impulse_drop, e) / std::abs(drop)
                               : std::numeric_limits<double>::quiet_NaN();
  return b;
}

}  // namespace vortex::bodies
