#include "fits.hpp"

#include <cmath>

namespace vortex::cli {

PowerFit fit_power_law(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  PowerFit fit;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    if (!(x[i] > 0) || !(y[i] > 0)) continue;
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
    ++fit.points;
  }
  const double n = static_cast<double>(fit.points);
  const double denominator = n * sxx - sx * sx;
  if (fit.points < 2 || !(denominator > 0)) {
    fit.exponent = fit.prefactor = NAN;
    return fit;
  }
  fit.exponent = (n * sxy - sx * sy) / denominator;
  fit.prefactor = std::exp((sy - fit.exponent * sx) / n);
  return fit;
}

std::vector<bool> pareto_front(const std::vector<double>& cost, const std::vector<double>& error) {
  const std::size_t n = cost.size();
  std::vector<bool> front(n, true);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n && front[i]; ++j) {
      const bool no_worse = cost[j] <= cost[i] && error[j] <= error[i];
      const bool better = cost[j] < cost[i] || error[j] < error[i];
      if (j != i && no_worse && better) front[i] = false;
    }
  }
  return front;
}

}  // namespace vortex::cli
