#pragma once
// Summaries of sweep results: the growth exponent of time with N, and the Pareto front of
// error against time.

#include <cstddef>
#include <vector>

namespace vortex::cli {

// y = prefactor * x^exponent by least squares on (log x, log y); points with x or y <= 0 are left
// out. `points` counts the points used; with fewer than 2 the fit is NaN.
struct PowerFit {
  double exponent = 0;
  double prefactor = 0;
  std::size_t points = 0;
};
PowerFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y);

// For each point (cost, error): true when no other point has both a cost and an error at most
// as large, one of them strictly smaller (the error-vs-time trade-off worth choosing from).
std::vector<bool> pareto_front(const std::vector<double>& cost, const std::vector<double>& error);

}  // namespace vortex::cli
