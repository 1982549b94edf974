#pragma once
// Invariants and integral quantities of a particle set, and a per-step CSV writer.
//
// For an unbounded flow, with Gamma_p = omega dV of particle p:
//   total vorticity   Omega = sum Gamma_p                       (zero for a closed vortex)
//   linear impulse    I = 1/2 sum x_p x Gamma_p                 (conserved inviscid and viscous)
//   angular impulse   A = 1/3 sum x_p x (x_p x Gamma_p)         (conserved inviscid and viscous)
//   energy            E = sum u_p . (x_p x Gamma_p)             (Saffman 1992: E = int u.(x x
//   omega)) enstrophy         Z = sum omega(x_p) . Gamma_p              (the smoothed vorticity
//   there) helicity          H = sum u_p . Gamma_p
// The last three need the velocity field (and its gradient for Z) at the particles. Saffman's E is
// 1/2 int |u|^2 for a singular kernel only; for particles of core sigma it is E_sigma - sigma
// dE_sigma/dsigma, where E_sigma = 1/2 sum_pq Gamma_p . Gamma_q G_sigma(x_p - x_q) is the energy
// whose viscous decay is dE_sigma/dt = -nu Z (docs/methods/budgets.md). core_energy_term gives
// the difference, E - E_sigma.

#include <array>
#include <cstddef>
#include <fstream>
#include <string>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/math/core_kind.hpp"
#include "vortex/particles.hpp"

namespace vortex {

struct Diagnostics {
  double time = 0;
  std::size_t count = 0;
  std::array<double, 3> total_vorticity{};
  std::array<double, 3> linear_impulse{};
  std::array<double, 3> angular_impulse{};
  double energy = 0;        // NaN without a field
  double enstrophy = 0;     // NaN without a gradient
  double helicity = 0;      // NaN without a field
  double max_strength = 0;  // max |Gamma_p|
  double sum_strength = 0;  // sum |Gamma_p|
};

// Sums in a fixed order (independent of the thread count). `field`, when given, must hold the
// velocity (and optionally the gradient) at the particles.
Diagnostics compute_diagnostics(const ParticleSet& particles, const VelocityField* field = nullptr,
                                double time = 0);

// The second moments sum_p Gz_p x_a^2 / sum_p Gz_p of the particles' z strength about the origin,
// per axis a: the spread of a blob of z vorticity centred there, which diffusion grows by 2 nu t.
std::array<double, 3> z_vorticity_second_moments(const ParticleSet& particles);

// E - E_sigma = 1/2 sum_p sum_q Gamma_p . Gamma_q H(|x_p - x_q|; sigma_q), with H = -sigma
// dG_sigma/dsigma = int_r^inf zeta_sigma(s) s ds the short-range kernel of the core (G_sigma its
// stream function, -lap G_sigma = zeta_sigma): for the exponential core H = Gamma(2/3, rho^3) /
// (4 pi sigma), for the Gaussian one sqrt(2/pi) exp(-rho^2/2) / (4 pi sigma), rho = r / sigma.
// Exact for particles of one sigma (each pair uses the source's sigma, as the velocity does), to
// 1e-12 of the largest pair term (pairs beyond that are left out); 0 for the singular core; NaN
// for the algebraic cores, whose H decays as a power of r. Sums in a fixed order on all threads.
double core_energy_term(const ParticleSet& particles, Core core);

// The energy budget over one interval [t0, t1]: rate = (e1 - e0) / (t1 - t0), dissipation = -nu
// (z0 + z1) / 2 (the trapezoidal mean, so both are centred at the interval's middle), and
// relative_error = rate / dissipation - 1 (NaN when nu = 0).
struct EnergyBudget {
  double rate = 0, dissipation = 0, relative_error = 0;
};
EnergyBudget energy_budget(double t0, double e0, double z0, double t1, double e1, double z1,
                           double nu);

// |a - b| / |b| for vectors, with a floor on |b| so that a zero reference does not divide by zero.
double relative_change(const std::array<double, 3>& value, const std::array<double, 3>& reference,
                       double floor = 1e-300);
double norm(const std::array<double, 3>& v);

// Writes one row per call: step, time, count, the three vectors, the scalars, then any extra
// columns the caller declared. Flushed every row, so a run that stops leaves a readable file.
class DiagnosticsCsv {
 public:
  DiagnosticsCsv(const std::string& path, std::vector<std::string> extra_columns = {});
  void write(long step, const Diagnostics& d, const std::vector<double>& extra = {});
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::size_t extra_count_;
  std::ofstream out_;
};

}  // namespace vortex
