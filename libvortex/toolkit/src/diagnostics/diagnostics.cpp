#include "vortex/diagnostics.hpp"

#include <cmath>
#include <iomanip>
#include <limits>
#include <stdexcept>

namespace vortex {

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
