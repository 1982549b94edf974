#include "vortex/core_function.hpp"

#include <cmath>

namespace vortex {

double core_fraction(Core core, double rho) {
  const double r2 = rho * rho;
  switch (core) {
    case Core::Exponential:
      return -std::expm1(-r2 * rho);
    case Core::Gaussian:
      return std::erf(rho / std::sqrt(2.0)) - std::sqrt(2.0 / M_PI) * rho * std::exp(-r2 / 2);
    case Core::RosenheadMoore:
      return r2 * rho / std::pow(r2 + 1, 1.5);
    case Core::WinckelmansLeonard:
      return r2 * rho * (r2 + 2.5) / std::pow(r2 + 1, 2.5);
    case Core::Singular:
    default:
      return 1.0;
  }
}

}  // namespace vortex
