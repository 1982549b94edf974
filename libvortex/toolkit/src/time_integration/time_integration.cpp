#include "vortex/time_integration.hpp"
#include "solver/text_excerpt.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace vortex {

namespace {

// Explicit Runge-Kutta tableau: stage i uses y + dt sum_j a[i][j] k_j; the update is
// y + dt sum_i b[i] k_i.
struct Tableau {
  int stages;
  double a[4][4];
  double b[4];
};

const Tableau& tableau(TimeScheme scheme) {
  static const Tableau euler{1, {{0}}, {1}};
  static const Tableau heun{2, {{0}, {1}}, {0.5, 0.5}};
  static const Tableau midpoint{2, {{0}, {0.5}}, {0, 1}};
  static const Tableau rk3{3, {{0}, {0.5}, {-1, 2}}, {1.0 / 6, 2.0 / 3, 1.0 / 6}};
  static const Tableau rk4{
      4, {{0}, {0.5}, {0, 0.5}, {0, 0, 1}}, {1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 6}};
  switch (scheme) {
    case TimeScheme::Euler:
      return euler;
    case TimeScheme::Midpoint:
      return midpoint;
    case TimeScheme::RK3:
      return rk3;
    case TimeScheme::RK4:
      return rk4;
    case TimeScheme::Heun:
    default:
      return heun;
  }
}

}  // namespace

std::string to_string(TimeScheme scheme) {
  switch (scheme) {
    case TimeScheme::Euler:
      return "euler";
    case TimeScheme::Midpoint:
      return "midpoint";
    case TimeScheme::RK3:
      return "rk3";
    case TimeScheme::RK4:
      return "rk4";
    case TimeScheme::Heun:
    default:
      return "heun";
  }
}

std::string to_string(Stretching stretching) {
  switch (stretching) {
    case Stretching::None:
      return "none";
    case Stretching::Classical:
      return "classical";
    case Stretching::Transpose:
    default:
      return "transpose";
  }
}

TimeScheme parse_time_scheme(const std::string& name) {
  if (name == "euler") return TimeScheme::Euler;
  if (name == "heun" || name == "rk2") return TimeScheme::Heun;
  if (name == "midpoint") return TimeScheme::Midpoint;
  if (name == "rk3") return TimeScheme::RK3;
  if (name == "rk4") return TimeScheme::RK4;
  throw std::invalid_argument("unknown time scheme '" + name +
                              "' (accepted: euler, heun, rk2, midpoint, rk3, rk4)");
}

Stretching parse_stretching(const std::string& name) {
  if (name == "none") return Stretching::None;
  if (name == "classical") return Stretching::Classical;
  if (name == "transpose") return Stretching::Transpose;
  throw std::invalid_argument("unknown stretching scheme '" + name +
                              "' (accepted: none, classical, transpose)");
}

int stages(TimeScheme scheme) {
  return tableau(scheme).stages;
}

void ParticleRates::resize(std::size_t n) {
  for (auto* v : {&x, &y, &z, &gx, &gy, &gz}) v->assign(n, 0.0);
}

void compute_rates(const ParticleSet& p, const VelocityField& f, Stretching stretching,
                   const std::array<double, 3>& free_stream, ParticleRates& r) {
  const std::size_t n = p.size();
  if (f.size() != n)
    throw std::invalid_argument("compute_rates: field and particles differ in size");
  if (stretching != Stretching::None && !f.has_gradient)
    throw std::invalid_argument("compute_rates: stretching needs the velocity gradient");
  r.resize(n);
  const bool transpose = stretching == Stretching::Transpose;
#pragma omp parallel for schedule(static) if (n > 20000)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
    r.x[i] = f.u[0][i] + free_stream[0];
    r.y[i] = f.u[1][i] + free_stream[1];
    r.z[i] = f.u[2][i] + free_stream[2];
    if (stretching == Stretching::None) continue;
    const double g[3] = {p.gx[i], p.gy[i], p.gz[i]};
    double s[3];
    for (int a = 0; a < 3; ++a) {
      double sum = 0;
      for (int b = 0; b < 3; ++b)
        sum += (transpose ? f.du[3 * b + a][i] : f.du[3 * a + b][i]) * g[b];
      s[a] = sum;
    }
    r.gx[i] = s[0];
    r.gy[i] = s[1];
    r.gz[i] = s[2];
  }
}

void relax_strengths(ParticleSet& p, const VelocityField& f, double fraction) {
  const std::size_t n = p.size();
  if (!(fraction >= 0 && fraction <= 1))
    throw std::invalid_argument("relax_strengths: the fraction must be in [0, 1]");
  if (f.size() != n || !f.has_gradient)
    throw std::invalid_argument("relax_strengths: needs the field's gradient at every particle");
#pragma omp parallel for schedule(static) if (n > 20000)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
    // du[3a + b] = du_a / dx_b.
    const double w[3] = {f.du[7][i] - f.du[5][i], f.du[2][i] - f.du[6][i], f.du[3][i] - f.du[1][i]};
    const double w_norm = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    if (!(w_norm > 0)) continue;
    const double g_norm = std::sqrt(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]);
    const double s = fraction * g_norm / w_norm;
    p.gx[i] = (1 - fraction) * p.gx[i] + s * w[0];
    p.gy[i] = (1 - fraction) * p.gy[i] + s * w[1];
    p.gz[i] = (1 - fraction) * p.gz[i] + s * w[2];
  }
}

TimeIntegrator::TimeIntegrator(Solver& solver, TimeIntegratorOptions options)
    : TimeIntegrator([&solver](const ParticleSet& p, bool gradient,
                               VelocityField& out) { solver.evaluate(p, gradient, out); },
                     options) {}

TimeIntegrator::TimeIntegrator(VelocityEvaluator evaluator, TimeIntegratorOptions options)
    : evaluator_(std::move(evaluator)), options_(options) {
  if (!evaluator_) throw std::invalid_argument("TimeIntegrator: no velocity evaluator");
  check_relaxation(options_.relaxation, options_.relaxation_rate);
}

void check_relaxation(double fraction, double rate, const std::string& fraction_name,
                      const std::string& rate_name, double dt, const std::string& dt_name) {
  if (!(fraction >= 0 && fraction <= 1))
    throw std::invalid_argument(fraction_name + " must be in [0, 1]");
  if (!(rate >= 0) || !std::isfinite(rate))
    throw std::invalid_argument(rate_name + " must be >= 0");
  if (fraction > 0 && rate > 0)
    throw std::invalid_argument("give " + fraction_name + " or " + rate_name + ", not both");
  if (dt > 0 && rate * dt > 1)
    throw std::invalid_argument(rate_name + " " + detail::number_text(rate) + " with " + dt_name +
                                " " + detail::number_text(dt) +
                                " turns the strengths by more than the whole fraction 1 a step");
}

double relaxation_fraction(const TimeIntegratorOptions& options, double dt) {
  return options.relaxation_rate > 0 ? std::min(1.0, options.relaxation_rate * std::abs(dt))
                                     : options.relaxation;
}

void TimeIntegrator::run_evaluator(const ParticleSet& particles, VelocityField& f) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool relaxing = options_.relaxation > 0 || options_.relaxation_rate > 0;
  evaluator_(particles, options_.stretching != Stretching::None || relaxing, f);
  evaluation_seconds_ +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++evaluations_;
}

const VelocityField& TimeIntegrator::evaluate(const ParticleSet& particles) {
  run_evaluator(particles, start_field_);
  return start_field_;
}

const VelocityField& TimeIntegrator::step(ParticleSet& p, double dt) {
  const Tableau& t = tableau(options_.scheme);
  const std::size_t n = p.size();
  k_.resize(t.stages);
  for (int s = 0; s < t.stages; ++s) {
    const ParticleSet* at = &p;
    if (s > 0) {
      if (stage_.x.capacity() < n) stage_.reserve(n + n / 4);  // room for N to grow
      stage_.resize(n);
      // The stage's particles written in one pass on all threads (a copy of p first would read
      // and write every array once more, on one thread).
#pragma omp parallel for schedule(static) if (n > 20000)
      for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
        double x = p.x[i], y = p.y[i], z = p.z[i], gx = p.gx[i], gy = p.gy[i], gz = p.gz[i];
        for (int j = 0; j < s; ++j) {
          const double w = dt * t.a[s][j];
          if (w == 0) continue;
          const ParticleRates& k = k_[j];
          x += w * k.x[i];
          y += w * k.y[i];
          z += w * k.z[i];
          gx += w * k.gx[i];
          gy += w * k.gy[i];
          gz += w * k.gz[i];
        }
        stage_.x[i] = x;
        stage_.y[i] = y;
        stage_.z[i] = z;
        stage_.gx[i] = gx;
        stage_.gy[i] = gy;
        stage_.gz[i] = gz;
        stage_.sigma[i] = p.sigma[i];
      }
      at = &stage_;
    }
    if (s == 0) {
      run_evaluator(p, start_field_);
      const double fraction = relaxation_fraction(options_, dt);
      if (fraction > 0) relax_strengths(p, start_field_, fraction);
      compute_rates(p, start_field_, options_.stretching, options_.free_stream, k_[0]);
    } else {
      run_evaluator(*at, stage_field_);
      compute_rates(*at, stage_field_, options_.stretching, options_.free_stream, k_[s]);
    }
  }
#pragma omp parallel for schedule(static) if (n > 20000)
  for (std::ptrdiff_t i = 0; i < static_cast<std::ptrdiff_t>(n); ++i) {
    for (int s = 0; s < t.stages; ++s) {
      const double w = dt * t.b[s];
      if (w == 0) continue;
      const ParticleRates& k = k_[s];
      p.x[i] += w * k.x[i];
      p.y[i] += w * k.y[i];
      p.z[i] += w * k.z[i];
      p.gx[i] += w * k.gx[i];
      p.gy[i] += w * k.gy[i];
      p.gz[i] += w * k.gz[i];
    }
  }
  return start_field_;
}

}  // namespace vortex
