#pragma once
// Viscous diffusion by the Vorticity Redistribution Method (Shankar & van Dommelen, J. Comput.
// Phys. 127, 1996), the scheme of Stock & Gharakhani 2008 section IV.C.
//
// Over a step dt, particle p gives the fraction f_pq of its strength to each neighbour q within
// a radius R (itself included):  Gamma_q(t + dt) = sum_p f_pq Gamma_p(t). The fractions make the
// redistribution reproduce the heat kernel's moments up to second order,
//
//   sum_q f_pq = 1,   sum_q f_pq d_q = 0,   sum_q f_pq d_q d_q^T = 2 nu dt I,   d_q = x_q - x_p,
//
// ten linear conditions, and are non-negative (the condition for stability: the total |Gamma| can
// only decrease). Among the many solutions we take the one of least weighted norm
//
//   minimize 1/2 sum_q c_q f_q^2,  c_q = 1 + |d_q / h|^2   subject to the moments and f >= 0,
//
// a strictly convex quadratic programme in place of the paper's linear programme: it has a unique
// solution that varies continuously with the particle positions and prefers near neighbours. It is
// solved through its dual: with the ten multipliers lambda, f_q = max(0, a_q . lambda) / c_q
// (a_q the moment row of q), and the concave, piecewise-quadratic dual is maximized by a
// semismooth Newton method with a backtracking line search (a 10 x 10 system per iteration,
// typically 3 to 8 iterations). When no non-negative solution exists the dual is unbounded and the
// iteration does not converge; the particle then gets new, empty neighbours on the free nodes of
// the lattice h Z^3 within R (a node is free when no particle is nearer than hole_distance * h),
// and is solved again. After the solve f_pp is reset to 1 - sum_{q != p} f_pq, so the total
// vorticity is conserved to rounding; the second moment of the vorticity grows by exactly
// 2 nu dt per dimension.
//
// Particles are solved in parallel (OpenMP); strengths are scattered in particle order, so the
// result does not depend on the thread count.

#include <array>
#include <cstddef>
#include <vector>

#include "vortex/particles.hpp"

namespace vortex {

struct VrmOptions {
  double spacing = 0;  // h: nominal particle spacing, the lattice of inserted particles (> 0)
  double radius_factor = 3.5;  // R >= radius_factor * sqrt(nu dt)
  double min_radius = 1.5;     // R >= min_radius * h (reaches face and edge lattice neighbours)
  double hole_distance = 0.5;  // a lattice node is free if no particle is within this * h
  bool insert = true;          // insert particles where the fractions have no solution
  // Particles weaker than this fraction of the largest |Gamma| never cause insertions; when they
  // have no non-negative solution they keep their strength for this step.
  double insert_threshold = 1e-4;
  // Use the signed least-norm fractions (exact moments) instead of keeping the strength. Off by
  // default: signed fractions do not bound sum |Gamma|, and repeated over many steps at the edge
  // of the vorticity they amplify noise that then calls for insertions.
  bool signed_fallback = false;
  double core_radius = 0;  // sigma of inserted particles; 0: that of the particle that asked
  int max_rounds = 4;      // insert-and-solve rounds per step
};

void validate(const VrmOptions& options);

struct VrmStats {
  std::size_t diffused = 0;         // particles redistributed with non-negative fractions
  std::size_t signed_fallback = 0;  // redistributed with signed fractions (when enabled)
  std::size_t kept = 0;             // weak particles that kept their strength (no solution)
  std::size_t unresolved = 0;       // of those, particles above insert_threshold
  std::size_t inserted = 0;         // particles added (and given strength)
  int rounds = 0;
  double radius = 0;        // the neighbourhood radius R used
  double max_residual = 0;  // largest moment residual of an accepted solve
  double mean_neighbors = 0;
  double seconds = 0;
};

// The fractions of one particle. `offsets` are d_q / h (the particle itself at index `self`, zero
// offset), `second_moment` is 2 nu dt / h^2. Returns true and fills `fractions` when a non-negative
// solution exists; `residual` gets the max-norm moment residual, `iterations` the Newton count.
bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          double second_moment, std::vector<double>& fractions,
                          double* residual = nullptr, int* iterations = nullptr);

// The signed least-norm fractions (no positivity), or false when the moments are not reachable.
bool solve_redistribution_signed(const std::vector<std::array<double, 3>>& offsets, int self,
                                 double second_moment, std::vector<double>& fractions);

// One diffusion step of the whole set: redistributes strengths and appends the inserted particles
// that received a share at the end. Positions of existing particles do not change.
VrmStats vrm_diffuse(ParticleSet& particles, double nu, double dt, const VrmOptions& options);

}  // namespace vortex
