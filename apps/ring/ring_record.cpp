#include "ring_record.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "vortex/vtp.hpp"

namespace vortex::ring_app {
namespace {

const std::array<double, 3> kCenter{0, 0, 0}, kAxis{0, 0, 1};

// The folder is made before the files in it are opened.
std::string made_folder(const std::string& folder) {
  std::filesystem::create_directories(folder);
  return folder;
}

std::vector<std::string> extra_columns(bool two_rings) {
  std::vector<std::string> extra = {"ring_z", "ring_r",   "ring_circulation",
                                    "speed",  "theory_z", "theory_speed"};
  if (two_rings)
    for (const char* c : {"ring1_z", "ring1_r", "ring2_z", "ring2_r"}) extra.push_back(c);
  for (const char* c : {"energy_sigma", "energy_rate", "dissipation", "budget_error"})
    extra.push_back(c);
  return extra;
}

}  // namespace

Recorder::Recorder(const Settings& s, const RingSetup& setup, int every)
    : setup_(setup),
      folder_(made_folder(s.output)),
      two_rings_(s.second_ring),
      every_(every),
      steps_(s.steps),
      series_(folder_ + "/ring.pvd"),
      csv_(folder_ + "/diagnostics.csv", extra_columns(s.second_ring)),
      pair_{measure_ring(vortex_ring(setup.first), kCenter, kAxis),
            measure_ring(vortex_ring(setup.second), kCenter, kAxis)},
      core_(s.solver.options().core),
      nu_(setup.nu) {}

void Recorder::record(long step, double t, const ParticleSet& p, const VelocityField& field) {
  const Diagnostics d = compute_diagnostics(p, &field, t);
  if (step == 0) first_diag_ = d;
  history_.max_impulse_drift = std::max(
      history_.max_impulse_drift, relative_change(d.linear_impulse, first_diag_.linear_impulse));
  std::vector<double> values = measure(step, t, p);
  add_budget(step, d, p, values);
  csv_.write(step, d, values);
  if (every_ > 0 && (step % every_ == 0 || step == steps_)) write_vtp_file(step, t, p, field);
}

std::vector<double> Recorder::measure(long step, double t, const ParticleSet& p) {
  RingHistory& h = history_;
  const RingMeasure m = measure_ring(p, kCenter, kAxis);
  if (step == 0) {
    theory_z_ = m.position;
  } else {
    // Trapezoidal integral of the theoretical speed from the previous record.
    theory_z_ +=
        0.5 * (t - h.times.back()) * (setup_.theory_speed(h.times.back()) + setup_.theory_speed(t));
  }
  const double speed = h.positions.empty()
                           ? std::numeric_limits<double>::quiet_NaN()
                           : (m.position - h.positions.back()) / (t - h.times.back());
  h.times.push_back(t);
  h.positions.push_back(m.position);
  h.theory_positions.push_back(theory_z_);
  std::vector<double> values = {m.position, m.radius,  m.circulation,
                                speed,      theory_z_, setup_.theory_speed(t)};
  if (two_rings_) {
    pair_ = measure_two_rings(p, kCenter, kAxis, pair_);
    h.pair_positions.push_back({pair_[0].position, pair_[1].position});
    for (double v : {pair_[0].position, pair_[0].radius, pair_[1].position, pair_[1].radius})
      values.push_back(v);
  }
  h.circulations.push_back(m.circulation);
  h.max_circulation_drift =
      std::max(h.max_circulation_drift,
               std::abs(m.circulation - h.circulations.front()) / std::abs(h.circulations.front()));
  return values;
}

void Recorder::add_budget(long step, const Diagnostics& d, const ParticleSet& p,
                          std::vector<double>& values) {
  const double energy = d.energy - core_energy_term(p, core_);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const EnergyBudget b = step == 0 ? EnergyBudget{nan, nan, nan}
                                   : energy_budget(last_time_, last_energy_, last_enstrophy_,
                                                   d.time, energy, d.enstrophy, nu_);
  for (double v : {energy, b.rate, b.dissipation, b.relative_error}) values.push_back(v);
  last_time_ = d.time;
  last_energy_ = energy;
  last_enstrophy_ = d.enstrophy;
}

void Recorder::write_vtp_file(long step, double t, const ParticleSet& p,
                              const VelocityField& field) {
  char name[64];
  std::snprintf(name, sizeof name, "ring_%06ld.vtp", step);
  write_vtp(folder_ + "/" + name, p, &field);
  series_.add(t, folder_ + "/" + name);
}

}  // namespace vortex::ring_app
