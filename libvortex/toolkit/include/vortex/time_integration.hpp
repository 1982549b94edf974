#pragma once
// Explicit time integration of vortex particles under their own velocity plus a free stream:
//
//   dx_p/dt     = u(x_p) + U_inf
//   dGamma_p/dt = (Gamma_p . grad) u(x_p)      classical stretching:  du_a/dx_b Gamma_b
//               = (grad u(x_p))^T Gamma_p       transpose stretching:  du_b/dx_a Gamma_b
//
// The default is the transpose scheme. For regularized particles of equal core radius its pair
// terms are antisymmetric, so the total vorticity sum Gamma_p is conserved to rounding (the
// classical scheme conserves it only as the particle field stays divergence-free; Winckelmans &
// Leonard 1993). Both are consistent with the Euler equations; the choice only matters for how
// the discretization error shows up. On the default inviscid ring of vortex-ring the transpose
// scheme also keeps the linear impulse 10 times better (drift 2.3e-5 against 2.0e-4 over 400
// steps, docs/VALIDATION.md).
//
// Core radii do not change. Schemes are explicit Runge-Kutta methods given by their tableaux:
// Heun and midpoint (second order, two velocity evaluations per step, as in Stock & Gharakhani
// 2008 section IV.C), Kutta's third order and the classical fourth order. Viscous diffusion is a
// separate fractional step (vrm.hpp, pse.hpp) applied after the convective step.

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/particles.hpp"
#include "vortex/solver.hpp"

namespace vortex {

enum class TimeScheme { Euler, Heun, Midpoint, RK3, RK4 };
enum class Stretching { None, Classical, Transpose };

std::string to_string(TimeScheme scheme);
std::string to_string(Stretching stretching);
// Accept "euler", "heun" (or "rk2"), "midpoint", "rk3", "rk4"; "none", "classical", "transpose".
// Throw std::invalid_argument listing the accepted names.
TimeScheme parse_time_scheme(const std::string& name);
Stretching parse_stretching(const std::string& name);
// Velocity evaluations per step (the number of stages).
int stages(TimeScheme scheme);

struct TimeIntegratorOptions {
  TimeScheme scheme = TimeScheme::Heun;
  Stretching stretching = Stretching::Transpose;
  std::array<double, 3> free_stream{0.0, 0.0, 0.0};
  // Relaxation of the strengths toward the field's vorticity (relax_strengths), this fraction at
  // the start of every step from the field evaluated there; 0: none.
  double relaxation = 0;
  // Or at this rate per unit time: the fraction min(1, relaxation_rate * dt) of each step, so that
  // runs at different time steps relax alike (the sphere's drag follows the rate, not the
  // fraction: docs/VALIDATION.md V2). At most one of the two is set.
  double relaxation_rate = 0;
};

// Throws std::invalid_argument unless the fraction is in [0, 1], the rate is finite and >= 0, and
// at most one of them is set; with a fixed time step dt (> 0), also where rate * dt exceeds 1 (the
// integrator would cap the fraction at 1: a program that fixes dt reports it instead). The
// messages call them `fraction_name`, `rate_name` and `dt_name` (the options' names, or a
// program's flags).
void check_relaxation(double fraction, double rate, const std::string& fraction_name = "relaxation",
                      const std::string& rate_name = "relaxation_rate", double dt = 0,
                      const std::string& dt_name = "dt");

// The fraction of a step of length dt that the options relax by (0: none).
double relaxation_fraction(const TimeIntegratorOptions& options, double dt);

// Turns each particle's strength toward the vorticity of the field at it, keeping its magnitude:
// Gamma <- (1 - f) Gamma + f |Gamma| w / |w|, w = curl u from the field's gradient (Pedrizzetti's
// relaxation). The classical stretching (Gamma . grad) u differs from the transpose, which keeps
// the total vorticity, by w x Gamma, so strengths aligned with w keep the total as well.
// Particles where w = 0 keep theirs.
void relax_strengths(ParticleSet& particles, const VelocityField& field, double fraction);

// dx/dt and dGamma/dt of every particle.
struct ParticleRates {
  std::vector<double> x, y, z, gx, gy, gz;
  void resize(std::size_t n);
};

// Rates from the field evaluated at the particles (the gradient is needed unless stretching is
// None).
void compute_rates(const ParticleSet& particles, const VelocityField& field, Stretching stretching,
                   const std::array<double, 3>& free_stream, ParticleRates& rates);

// Writes into `out` the velocity (and gradient when asked) of a particle set at its own particles,
// reusing out's storage. The default wraps Solver::evaluate; a caller may add other contributions
// (a body, a boundary).
using VelocityEvaluator =
    std::function<void(const ParticleSet&, bool gradient, VelocityField& out)>;

class TimeIntegrator {
 public:
  // The solver must outlive the integrator.
  TimeIntegrator(Solver& solver, TimeIntegratorOptions options = {});
  TimeIntegrator(VelocityEvaluator evaluator, TimeIntegratorOptions options = {});

  const TimeIntegratorOptions& options() const { return options_; }

  // Advances positions and strengths by dt. The returned field is the one evaluated at the start
  // of the step, at the particles as they were (useful for diagnostics and output of time t).
  const VelocityField& step(ParticleSet& particles, double dt);

  // Evaluates the field at the particles without moving them (for output at the final time).
  const VelocityField& evaluate(const ParticleSet& particles);

  long evaluations() const { return evaluations_; }
  // Seconds spent in velocity evaluations so far.
  double evaluation_seconds() const { return evaluation_seconds_; }

 private:
  void run_evaluator(const ParticleSet& particles, VelocityField& out);

  VelocityEvaluator evaluator_;
  TimeIntegratorOptions options_;
  VelocityField start_field_, stage_field_;
  ParticleSet stage_;
  std::vector<ParticleRates> k_;
  long evaluations_ = 0;
  double evaluation_seconds_ = 0;
};

}  // namespace vortex
