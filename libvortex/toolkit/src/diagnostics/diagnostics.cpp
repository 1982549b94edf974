#include "vortex/diagnostics.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <stdexcept>
#include <vector>

#include "vortex/grid_search.hpp"

namespace vortex {
namespace {

// 4 pi sigma H(rho) of the exponential core, Gamma(2/3, rho^3) = 3 int_rho^inf t exp(-t^3) dt, by
// cubic Hermite interpolation in a table over [0, kReach] (its derivative is -3 rho exp(-rho^3));
// the table's values come from 8-point Gauss-Legendre panels summed from the far end.
class ExponentialCoreTerm {
 public:
  static constexpr double kReach = 3.0;  // Gamma(2/3, 27) < 1e-12 Gamma(2/3)
  ExponentialCoreTerm() : value_(kNodes + 1) {
    static constexpr double x[4] = {0.1834346424956498, 0.5255324099163290, 0.7966664774136267,
                                    0.9602898564975363};
    static constexpr double w[4] = {0.3626837833783620, 0.3137066458778873, 0.2223810344533745,
                                    0.1012285362903763};
    const double c = kReach * kReach * kReach;
    value_[kNodes] = std::pow(c, -1.0 / 3) * std::exp(-c);  // the tail, asymptotically
    for (int i = kNodes - 1; i >= 0; --i) {
      const double mid = (i + 0.5) * kStep, half = 0.5 * kStep;
      double panel = 0;
      for (int k = 0; k < 4; ++k)
        for (double t : {mid - half * x[k], mid + half * x[k]})
          panel += w[k] * 3 * t * std::exp(-t * t * t);
      value_[i] = value_[i + 1] + half * panel;
    }
  }
  double operator()(double rho) const {
    if (rho >= kReach) return 0;
    const double s = rho / kStep;
    const int i = static_cast<int>(s);
    const double f = s - i, r0 = i * kStep, r1 = r0 + kStep;
    const double d0 = -3 * r0 * std::exp(-r0 * r0 * r0) * kStep;
    const double d1 = -3 * r1 * std::exp(-r1 * r1 * r1) * kStep;
    const double f2 = f * f, f3 = f2 * f;
    return (2 * f3 - 3 * f2 + 1) * value_[i] + (f3 - 2 * f2 + f) * d0 +
           (-2 * f3 + 3 * f2) * value_[i + 1] + (f3 - f2) * d1;
  }

 private:
  static constexpr int kNodes = 3000;
  static constexpr double kStep = kReach / kNodes;
  std::vector<double> value_;
};

// 1/2 sum_pq Gamma_p . Gamma_q term(r / sigma_q) / (4 pi sigma_q) over the pairs within reach
// sigma_q; term(rho) is 4 pi sigma H.
template <class Term>
double pair_sum(const ParticleSet& p, double reach, const Term& term) {
  const std::size_t n = p.size();
  if (n == 0) return 0;
  const double max_sigma = *std::max_element(p.sigma.begin(), p.sigma.end());
  const double radius = reach * max_sigma;
  GridSearch grid;
  grid.rebuild(PointsView(p), radius);
  std::vector<double> partial(n, 0.0);
#pragma omp parallel
  {
    std::vector<int> found;
#pragma omp for schedule(dynamic, 64)
    for (std::size_t i = 0; i < n; ++i) {
      grid.query(p.x[i], p.y[i], p.z[i], radius, found);
      double sum = 0;
      for (const int j : found) {
        const double dx = p.x[i] - p.x[j], dy = p.y[i] - p.y[j], dz = p.z[i] - p.z[j];
        const double rho = std::sqrt(dx * dx + dy * dy + dz * dz) / p.sigma[j];
        if (rho >= reach) continue;
        sum += (p.gx[i] * p.gx[j] + p.gy[i] * p.gy[j] + p.gz[i] * p.gz[j]) * term(rho) / p.sigma[j];
      }
      partial[i] = sum;
    }
  }
  double total = 0;
  for (const double s : partial) total += s;
  return total / (8 * M_PI);
}

}  // namespace

Diagnostics compute_diagnostics(const ParticleSet& p, const VelocityField* field, double time) {
  Diagnostics d;
  d.time = time;
  d.count = p.size();
  const bool with_u = field && field->size() == p.size();
  const bool with_du = with_u && field->has_gradient;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  d.energy = with_u ? 0.0 : nan;
  d.helicity = with_u ? 0.0 : nan;
  d.enstrophy = with_du ? 0.0 : nan;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double x[3] = {p.x[i], p.y[i], p.z[i]};
    const double g[3] = {p.gx[i], p.gy[i], p.gz[i]};
    const double c[3] = {x[1] * g[2] - x[2] * g[1], x[2] * g[0] - x[0] * g[2],
                         x[0] * g[1] - x[1] * g[0]};  // x x Gamma
    const double cc[3] = {x[1] * c[2] - x[2] * c[1], x[2] * c[0] - x[0] * c[2],
                          x[0] * c[1] - x[1] * c[0]};  // x x (x x Gamma)
    for (int k = 0; k < 3; ++k) {
      d.total_vorticity[k] += g[k];
      d.linear_impulse[k] += 0.5 * c[k];
      d.angular_impulse[k] += cc[k] / 3.0;
    }
    const double s = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    d.max_strength = std::max(d.max_strength, s);
    d.sum_strength += s;
    if (with_u) {
      const double u[3] = {field->u[0][i], field->u[1][i], field->u[2][i]};
      d.energy += u[0] * c[0] + u[1] * c[1] + u[2] * c[2];
      d.helicity += u[0] * g[0] + u[1] * g[1] + u[2] * g[2];
    }
    if (with_du) {
      const auto w = field->vorticity(i);
      d.enstrophy += w[0] * g[0] + w[1] * g[1] + w[2] * g[2];
    }
  }
  return d;
}

double core_energy_term(const ParticleSet& p, Core core) {
  switch (core) {
    case Core::Exponential: {
      static const ExponentialCoreTerm term;
      return pair_sum(p, ExponentialCoreTerm::kReach, term);
    }
    case Core::Gaussian:  // exp(-rho^2 / 2) < 1e-12 beyond rho = 7.5
      return pair_sum(p, 7.5,
                      [](double rho) { return std::sqrt(2 / M_PI) * std::exp(-0.5 * rho * rho); });
    case Core::Singular:
      return 0;
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

EnergyBudget energy_budget(double t0, double e0, double z0, double t1, double e1, double z1,
                           double nu) {
  EnergyBudget b;
  b.rate = (e1 - e0) / (t1 - t0);
  b.dissipation = -nu * 0.5 * (z0 + z1);
  b.relative_error = nu > 0 ? b.rate / b.dissipation - 1 : std::numeric_limits<double>::quiet_NaN();
  return b;
}

double norm(const std::array<double, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

std::array<double, 3> z_vorticity_second_moments(const ParticleSet& p) {
  double m0 = 0;
  std::array<double, 3> m2{};
  for (std::size_t i = 0; i < p.size(); ++i) {
    m0 += p.gz[i];
    m2[0] += p.gz[i] * p.x[i] * p.x[i];
    m2[1] += p.gz[i] * p.y[i] * p.y[i];
    m2[2] += p.gz[i] * p.z[i] * p.z[i];
  }
  for (double& m : m2) m /= m0;
  return m2;
}

double relative_change(const std::array<double, 3>& value, const std::array<double, 3>& reference,
                       double floor) {
  const std::array<double, 3> diff = {value[0] - reference[0], value[1] - reference[1],
                                      value[2] - reference[2]};
  return norm(diff) / std::max(norm(reference), floor);
}

DiagnosticsCsv::DiagnosticsCsv(const std::string& path, std::vector<std::string> extra_columns)
    : path_(path), extra_count_(extra_columns.size()), out_(path) {
  if (!out_) throw std::runtime_error("cannot write diagnostics file '" + path + "'");
  out_ << "step,time,count,"
          "vorticity_x,vorticity_y,vorticity_z,"
          "impulse_x,impulse_y,impulse_z,"
          "angular_impulse_x,angular_impulse_y,angular_impulse_z,"
          "energy,enstrophy,helicity,max_strength,sum_strength";
  for (const auto& name : extra_columns) out_ << ',' << name;
  out_ << '\n' << std::setprecision(15);
  out_.flush();
}

void DiagnosticsCsv::write(long step, const Diagnostics& d, const std::vector<double>& extra) {
  if (extra.size() != extra_count_)
    throw std::invalid_argument("DiagnosticsCsv::write: expected " + std::to_string(extra_count_) +
                                " extra values, got " + std::to_string(extra.size()));
  out_ << step << ',' << d.time << ',' << d.count;
  for (const auto* v : {&d.total_vorticity, &d.linear_impulse, &d.angular_impulse})
    for (double c : *v) out_ << ',' << c;
  out_ << ',' << d.energy << ',' << d.enstrophy << ',' << d.helicity << ',' << d.max_strength << ','
       << d.sum_strength;
  for (double e : extra) out_ << ',' << e;
  out_ << '\n';
  out_.flush();
  if (!out_) throw std::runtime_error("writing diagnostics file '" + path_ + "' failed");
}

}  // namespace vortex
