#pragma once
// Translation speed of thin vortex rings, for the particles and cores of this library.
//
// Thin-ring formula (Kelvin, Saffman): a ring of radius R and circulation Gamma whose cross-section
// is small moves at
//
//   U = Gamma / (4 pi R) (ln(8 R / a) - beta),
//
// where a and beta depend on the vorticity profile of the core: beta = 1/4 for a uniform core of
// radius a, beta = 0.558 for a Gaussian core omega ~ exp(-s^2/a^2) (Saffman 1970). For any
// distribution w over the cross-section (unit total), written through the logarithmic mean
// distance ln L = int int w(c) w(c') ln|c - c'|, the general result is
//
//   U = Gamma / (4 pi R) (ln(8 R / L) - 1/2).                                          (1)
//
// Vortex particles. A particle moves with the velocity at its center, and its core regularizes
// the pair interaction once: a ring made of particles is a continuum of regularized coaxial
// filaments, a Hamiltonian system whose energy is H = Gamma^2 R / 2 (ln(8R) - 2 - ln L_sigma),
//
//   ln L_sigma = sum_k sum_l w_k w_l Q_sigma(|c_k - c_l|),
//   Q_sigma(d) = int phi_sigma(y) ln|d - y| dy   (phi_sigma: the core projected along the ring),
//
// with c_k the positions of the particles in the cross-section and w_k their shares of the
// circulation. Kelvin's argument U = dH/dP along rings of equal circulation whose cross-sections
// shrink as R^(-1/2) (volume conservation) then gives
//
//   U = Gamma / (4 pi R) (ln(8 R / L_sigma) - 1 + D / 2),   D = d ln L_sigma / d ln s,   (2)
//
// where s scales the particle positions in the cross-section at fixed sigma. Two limits check it:
// when the cross-section is much wider than sigma, L_sigma -> L and D -> 1, which is (1); for a
// single filament of particles (one per cross-section), D = 0 and (2) is the centerline velocity
// of the regularized ring, U = Gamma / (4 pi R) (ln(8 R / sigma) - beta_c), with
// beta_c = ln 2 - int_0^inf (q(rho) - H(rho - 1)) / rho drho (q the core's vorticity fraction):
//   exponential 0.5007 (= ln 2 - gamma_E / 3), Gaussian 1.0580, Rosenhead-Moore 1 (Moore's
//   e^(-3/4) cutoff), Winckelmans-Leonard 0.5. The two forms agree (tested).
//
// Equivalent core. We report (2) also as U = Gamma/(4 pi R)(ln(8R/a_eq) - 1/4): a_eq is the
// radius of the uniform core that moves at the same speed, ln a_eq = ln L_sigma + 3/4 - D/2.
//
// Viscous rings (Saffman 1970): a ring whose core has become Gaussian with delta^2 = 4 nu (t + t0)
// moves at U = Gamma / (4 pi R) (ln(8 R / delta) - 0.558), 0.558 = (1 - gamma_E + ln 2) / 2. The
// virtual origin t0 is set so that the formula matches the initial ring (delta_0 of eq. (2)).

#include <array>
#include <vector>

#include "vortex/generators.hpp"
#include "vortex/math/core_function.hpp"
#include "vortex/particles.hpp"

namespace vortex {

inline constexpr double kSaffmanGaussianBeta = 0.5579;  // (1 - 0.5772157 + 0.6931472) / 2
inline constexpr double kUniformCoreBeta = 0.25;

// U = Gamma / (4 pi R) (ln(8 R / a) - beta).
double thin_ring_speed(double circulation, double radius, double a, double beta);

// Saffman's viscous ring: delta = sqrt(delta0^2 + 4 nu t).
double saffman_ring_speed(double circulation, double radius, double delta0, double nu, double t);

// beta_c of a filament of particles (ring with one particle per cross-section), relative to sigma.
double filament_beta(Core core);

// Q_sigma(d): log potential of one core projected along a straight line (unit circulation), at
// distance d from its center. Tabulated once per core (d in units of sigma).
class ProjectedCore {
 public:
  explicit ProjectedCore(Core core);  // throws for Core::Singular
  Core core() const { return core_; }
  // Projected vorticity phi(s) (unit sigma, unit total) and its log potential Q(d).
  double vorticity(double s) const;
  double log_potential(double d, double sigma) const;

 private:
  Core core_;
  double ds_ = 0, s_max_ = 0;
  std::vector<double> phi_, inner_mass_, outer_log_;  // on s_i = i ds
};

// Particle positions in one cross-section (radial and axial offsets from the core center) and
// their shares of the circulation (summing to 1).
struct CrossSection {
  std::vector<double> dr, dz, weight;
};

// The cross-section that vortex_ring(options) builds.
CrossSection ring_cross_section(const RingOptions& options);

// ln L_sigma of a cross-section (unit of length: that of the offsets), and D = d ln L_sigma/d ln s.
double log_mean_distance(const ProjectedCore& core, const CrossSection& section, double sigma,
                         double scale = 1.0);
double log_mean_distance_slope(const ProjectedCore& core, const CrossSection& section,
                               double sigma);
// The same for a continuous Gaussian cross-section omega ~ exp(-s^2/delta^2) smoothed by the core.
double gaussian_log_mean_distance(const ProjectedCore& core, double delta, double sigma);
double gaussian_log_mean_distance_slope(const ProjectedCore& core, double delta, double sigma);

// Everything the ring check compares with.
struct RingTheory {
  double speed = 0;           // eq. (2)
  double log_L = 0;           // ln L_sigma
  double slope_D = 0;         // D
  double a_equivalent = 0;    // uniform core moving at the same speed (beta = 1/4)
  double delta0 = 0;          // Gaussian core moving at the same speed (Saffman's beta = 0.558)
  double filament_speed = 0;  // the same ring collapsed to one filament of particles
};
RingTheory particle_ring_theory(const RingOptions& options, Core core);

// Theory of a particle ring whose cross-section is a Gaussian of width delta (what diffusion
// makes of it), smoothed by cores of radius sigma: eq. (2) with the continuous distribution.
double gaussian_particle_ring_speed(const ProjectedCore& core, double circulation, double radius,
                                    double delta, double sigma);

// Position of a ring on its axis, measured from the particles. With the axis n through `center`,
// each particle has an axial coordinate z, a distance rho from the axis and an azimuthal strength
// Gamma_theta; its share of the impulse along the axis is rho Gamma_theta. Then
//   position     Z = sum rho Gamma_theta z / sum rho Gamma_theta   (impulse-weighted centroid)
//   radius       R = sqrt(I / (pi Gamma)),  I = 1/2 sum rho Gamma_theta  (the impulse radius)
//   circulation  Gamma = sum Gamma_theta / (2 pi rho)                (exact for the generated
//   rings)
struct RingMeasure {
  double position = 0;
  double radius = 0;
  double circulation = 0;
  double impulse = 0;
};

RingMeasure measure_ring(const ParticleSet& particles, const std::array<double, 3>& center,
                         const std::array<double, 3>& axis);

// Two coaxial rings: particles go to the ring whose core (R, Z) is nearest in the meridional
// plane, starting from `guess`, refined a few times. Rings are returned in the order of `guess`.
std::array<RingMeasure, 2> measure_two_rings(const ParticleSet& particles,
                                             const std::array<double, 3>& center,
                                             const std::array<double, 3>& axis,
                                             const std::array<RingMeasure, 2>& guess);

// Least-squares slope of y(t).
double fitted_slope(const std::vector<double>& t, const std::vector<double>& y);

}  // namespace vortex
