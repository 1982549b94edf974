#include "ring_measure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "vortex/ring_theory.hpp"

namespace vortex::ring_app {
namespace {

int count_passages(const std::vector<std::array<double, 2>>& pair_positions) {
  int passages = 0;
  for (std::size_t k = 1; k < pair_positions.size(); ++k) {
    const double a = pair_positions[k - 1][0] - pair_positions[k - 1][1];
    const double b = pair_positions[k][0] - pair_positions[k][1];
    if ((a > 0) != (b > 0)) ++passages;
  }
  return passages;
}

}  // namespace

std::vector<Window> window_speeds(const std::vector<double>& t, const std::vector<double>& z,
                                  const std::vector<double>& theory_z, std::size_t first,
                                  int windows) {
  std::vector<Window> out;
  const std::size_t n = t.size();
  if (n < first + 4 || windows < 1) return out;
  const int count = static_cast<int>(std::min<std::size_t>(windows, (n - first) / 3));
  for (int w = 0; w < count; ++w) {
    // Consecutive windows share their end points.
    const std::size_t b = first + (n - 1 - first) * w / count;
    const std::size_t e = first + (n - 1 - first) * (w + 1) / count + 1;
    const std::vector<double> tt(t.begin() + b, t.begin() + e);
    const std::vector<double> zz(z.begin() + b, z.begin() + e);
    const double dt = tt.back() - tt.front();
    const double theory = theory_z.empty() ? std::numeric_limits<double>::quiet_NaN()
                                           : (theory_z[e - 1] - theory_z[b]) / dt;
    out.push_back({0.5 * (tt.front() + tt.back()), fitted_slope(tt, zz), theory});
  }
  return out;
}

SpeedFit fit_speed(const RingHistory& h, double skip, int steps, int windows, bool have_theory) {
  SpeedFit fit;
  const std::size_t first =
      std::min(h.times.size() - 2, static_cast<std::size_t>(std::lround(skip * steps)));
  const std::vector<double> fit_t(h.times.begin() + first, h.times.end());
  const std::vector<double> fit_z(h.positions.begin() + first, h.positions.end());
  fit.measured = fitted_slope(fit_t, fit_z);
  fit.expected = std::numeric_limits<double>::quiet_NaN();
  if (have_theory)
    fit.expected =
        (h.theory_positions.back() - h.theory_positions[first]) / (fit_t.back() - fit_t.front());
  fit.rel_err = std::abs(fit.measured - fit.expected) / std::abs(fit.expected);
  fit.windows =
      window_speeds(h.times, h.positions, have_theory ? h.theory_positions : std::vector<double>{},
                    first, windows);
  if (have_theory)
    for (const Window& w : fit.windows)
      fit.max_window_err = std::max(fit.max_window_err, std::abs(w.measured / w.theory - 1));
  fit.passages = count_passages(h.pair_positions);
  return fit;
}

}  // namespace vortex::ring_app
