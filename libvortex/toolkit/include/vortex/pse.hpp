#pragma once
// Particle strength exchange (Degond & Mas-Gallic 1989): the Laplacian of the vorticity replaced by
// an integral operator that exchanges strength between neighbours,
//
//   dGamma_p/dt = nu / eps^2 sum_q V (Gamma_q - Gamma_p) eta_eps(x_p - x_q),
//   eta_eps(x)  = eps^-3 eta(|x|/eps),  eta(rho) = 2 (2 pi)^(-3/2) exp(-rho^2 / 2),
//
// with eta normalized so that int eta(x) x_1^2 dx = 2 (second-order accurate in eps). V is the
// particle volume (h^3 on a lattice of spacing h). Each pair term is antisymmetric, so the total
// vorticity is conserved to rounding; on a lattice with eps >= h the quadrature error is below
// exp(-2 pi^2 eps^2 / h^2), and the second moment grows by 2 nu t per dimension. Particles do not
// move or appear: the particles must already cover the region the vorticity diffuses into.
// The exchange weights and rates themselves: vortex/pse_weights.hpp.

#include <cstddef>
#include <functional>

#include "vortex/particles.hpp"

namespace vortex {

struct PseOptions {
  double epsilon = 0;  // kernel width eps (> 0), typically the particle spacing h
  double volume = 0;   // particle volume V (> 0), h^3 on a lattice
  double cutoff = 6;   // neighbours within cutoff * eps (exp(-18) ~ 1.5e-8 beyond)
  // Largest nu dt / eps^2 of one sub-step (Heun is stable up to 0.5 with this kernel).
  double max_substep = 0.2;
};

// Throws std::invalid_argument naming the bad option.
void validate(const PseOptions& options);

// The equal sub-steps that max_substep requires for nu and dt (0 when nu or dt is 0). Throws
// std::invalid_argument for bad options, nu or dt, or more sub-steps than an int holds.
int pse_substeps(double nu, double dt, const PseOptions& options);

// Advances the strengths by dt at fixed positions with Heun's method, in as many equal sub-steps
// as max_substep requires. Returns the number of sub-steps.
int pse_diffuse(ParticleSet& particles, double nu, double dt, const PseOptions& options);

namespace detail {
// pse_diffuse on one part of a set split over processes (the distributed toolkit's): the first
// `own` particles are this part's, the rest copies of the other parts' particles within
// cutoff * epsilon of them. Only the own particles' strengths advance; `refresh` sets the copies'
// strengths from their parts after each stage (every part calls it as often: the sub-steps depend
// on nu, dt and the options only, pse_substeps).
int pse_diffuse_part(ParticleSet& particles, std::size_t own, double nu, double dt,
                     const PseOptions& options, const std::function<void(ParticleSet&)>& refresh);
}  // namespace detail

}  // namespace vortex
