#pragma once
// Test oracles: an independent long-double direct sum, seeded random particle sets, and error
// norms.

#include <array>
#include <cstdint>

#include "vortex/field.hpp"
#include "vortex/math/core_function.hpp"
#include "vortex/particles.hpp"

namespace vortex::testing {

// Vorticity profile zeta(rho) of each core, normalized so that 4 pi int_0^inf zeta rho^2 drho = 1.
long double core_vorticity(Core core, long double rho);
// q(rho) in long double from the closed forms.
long double core_fraction_ld(Core core, long double rho);

// Direct Biot-Savart sum in long double, built from q(rho) and q'(rho) = 4 pi rho^2 zeta(rho)
// rather than from the library's core factors. Self pairs (r = 0) contribute nothing.
VelocityField reference_direct(const ParticleSet& sources, PointsView targets, Core core,
                               bool gradient);

// N particles uniform in [lo, hi]^3 with sigma and |Gamma| <= 1.5 sigma^2 as in the paper's case.
ParticleSet random_cube(std::size_t n, std::uint64_t seed, double sigma = 0);
Points random_points(std::size_t n, std::uint64_t seed, double lo, double hi);
// The set at length scale s: positions and sigma times s, Gamma times s^2, so that the velocity is
// unchanged and the gradient divided by s (exactly so where s is a power of two).
ParticleSet scaled(ParticleSet p, double s);

// sqrt(sum |a - b|^2) / sqrt(sum |b|^2) over velocity or gradient components.
double relative_l2_velocity(const VelocityField& a, const VelocityField& b);
double relative_l2_gradient(const VelocityField& a, const VelocityField& b);
// (1/n) sum |a_i - b_i| / |b_i|.
double mean_relative_velocity(const VelocityField& a, const VelocityField& b);
double mean_relative_gradient(const VelocityField& a, const VelocityField& b);

}  // namespace vortex::testing
