#pragma once
// The ring's translation speed from its recorded positions: a least-squares fit after the
// start-up part, the same over consecutive windows, each against the theory's average over the
// same interval, and (for two rings) the passages of one ring through the other.

#include <array>
#include <cstddef>
#include <vector>

namespace vortex::ring_app {

// One entry per recorded time.
struct RingHistory {
  std::vector<double> times, positions, theory_positions, circulations;
  std::vector<std::array<double, 2>> pair_positions;  // two rings only
  double max_impulse_drift = 0, max_circulation_drift = 0;
};

// Speed over one window: fitted slope against the mean of the theory over the window.
struct Window {
  double t_mid, measured, theory;
};

std::vector<Window> window_speeds(const std::vector<double>& t, const std::vector<double>& z,
                                  const std::vector<double>& theory_z, std::size_t first,
                                  int windows);

struct SpeedFit {
  double measured = 0, expected = 0, rel_err = 0;  // expected is NaN without a theory
  std::vector<Window> windows;
  double max_window_err = 0;
  int passages = 0;
};

// Fits the positions recorded after the fraction `skip` of `steps`.
SpeedFit fit_speed(const RingHistory& h, double skip, int steps, int windows, bool have_theory);

}  // namespace vortex::ring_app
