#pragma once
// What a ring run records at each time: a row of diagnostics.csv (the invariants, the ring's
// position, radius, circulation and speed, the theory's position and speed, with two rings each
// one's position and radius, then the energy budget: the regularized field's energy E_sigma,
// dE_sigma/dt over the interval from the previous row, -nu Z averaged over that interval, and
// their relative difference; docs/methods/budgets.md), the positions the speed fit uses, and
// every few steps a .vtp file of the .pvd series.

#include <array>
#include <string>
#include <vector>

#include "ring_measure.hpp"
#include "ring_settings.hpp"
#include "ring_setup.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/field.hpp"
#include "vortex/particles.hpp"
#include "vortex/pvd.hpp"
#include "vortex/ring_theory.hpp"

namespace vortex::ring_app {

class Recorder {
 public:
  // Creates the output folder and the diagnostics file.
  Recorder(const Settings& s, const RingSetup& setup, int every);

  // Records time t: the particles and the field evaluated on them.
  void record(long step, double t, const ParticleSet& p, const VelocityField& field);
  const RingHistory& history() const { return history_; }

 private:
  // The extra columns of diagnostics.csv at time t; appends to the history.
  std::vector<double> measure(long step, double t, const ParticleSet& p);
  // The budget's columns at time t, from the diagnostics there and at the previous row.
  void add_budget(long step, const Diagnostics& d, const ParticleSet& p,
                  std::vector<double>& values);
  void write_vtp_file(long step, double t, const ParticleSet& p, const VelocityField& field);

  const RingSetup& setup_;
  const std::string folder_;
  const bool two_rings_;
  const int every_, steps_;
  PvdWriter series_;
  DiagnosticsCsv csv_;
  std::array<RingMeasure, 2> pair_;  // the last measure of both rings, where the next one starts
  RingHistory history_;
  Diagnostics first_diag_;
  double theory_z_ = 0;
  const Core core_;
  const double nu_;
  double last_time_ = 0, last_energy_ = 0, last_enstrophy_ = 0;
};

}  // namespace vortex::ring_app
