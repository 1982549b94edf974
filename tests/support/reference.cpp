#include "support/reference.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace vortex::testing {

namespace {
constexpr long double kPi = 3.141592653589793238462643383279502884L;
}

long double core_vorticity(Core core, long double rho) {
  const long double r2 = rho * rho;
  switch (core) {
    case Core::Exponential:
      return 3.0L / (4.0L * kPi) * std::exp(-r2 * rho);
    case Core::Gaussian:
      return std::pow(2.0L * kPi, -1.5L) * std::exp(-r2 / 2.0L);
    case Core::RosenheadMoore:
      return 3.0L / (4.0L * kPi) * std::pow(r2 + 1.0L, -2.5L);
    case Core::WinckelmansLeonard:
      return 15.0L / (8.0L * kPi) * std::pow(r2 + 1.0L, -3.5L);
    default:
      throw std::invalid_argument("the singular core has no vorticity profile");
  }
}

long double core_fraction_ld(Core core, long double rho) {
  const long double r2 = rho * rho;
  switch (core) {
    case Core::Exponential:
      return -std::expm1(-r2 * rho);
    case Core::Gaussian: {
      if (r2 >= 0.5L)
        return std::erf(rho / std::sqrt(2.0L)) - std::sqrt(2.0L / kPi) * rho * std::exp(-r2 / 2.0L);
      // The closed form cancels as rho -> 0. From erf's series, with x = rho^2/2:
      // q = sqrt(2/pi) rho^3 sum_k (-x)^k / (k! (2k+3)).
      const long double x = r2 / 2.0L;
      long double term = 1.0L, sum = 1.0L / 3.0L;
      for (int k = 1; k <= 24; ++k) {
        term *= -x / k;
        sum += term / (2 * k + 3);
      }
      return std::sqrt(2.0L / kPi) * r2 * rho * sum;
    }
    case Core::RosenheadMoore:
      return r2 * rho / std::pow(r2 + 1.0L, 1.5L);
    case Core::WinckelmansLeonard:
      return r2 * rho * (r2 + 2.5L) / std::pow(r2 + 1.0L, 2.5L);
    default:
      return 1.0L;
  }
}

VelocityField reference_direct(const ParticleSet& s, PointsView t, Core core, bool gradient) {
  VelocityField out;
  out.resize(t.size(), gradient);
  const long double inv4pi = 1.0L / (4.0L * kPi);
  for (std::size_t i = 0; i < t.size(); ++i) {
    long double u[3] = {0, 0, 0}, du[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (std::size_t j = 0; j < s.size(); ++j) {
      const long double d[3] = {(long double)t.x[i] - s.x[j], (long double)t.y[i] - s.y[j],
                                (long double)t.z[i] - s.z[j]};
      const long double r = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
      if (r == 0) continue;
      const long double sg = s.sigma[j], rho = r / sg;
      const long double q = core == Core::Singular ? 1.0L : core_fraction_ld(core, rho);
      const long double dq =
          core == Core::Singular ? 0.0L : 4.0L * kPi * rho * rho * core_vorticity(core, rho);
      const long double F = q / (r * r * r);
      const long double dF = dq / (sg * r * r * r) - 3.0L * q / (r * r * r * r);  // dF/dr
      const long double g[3] = {s.gx[j], s.gy[j], s.gz[j]};
      const long double c[3] = {g[1] * d[2] - g[2] * d[1], g[2] * d[0] - g[0] * d[2],
                                g[0] * d[1] - g[1] * d[0]};
      for (int a = 0; a < 3; ++a) u[a] += F * c[a];
      // d/dx_b (Gamma x d)_a = eps_{a c b} Gamma_c
      const long double cross[3][3] = {{0, -g[2], g[1]}, {g[2], 0, -g[0]}, {-g[1], g[0], 0}};
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) du[3 * a + b] += dF / r * d[b] * c[a] + F * cross[a][b];
    }
    for (int a = 0; a < 3; ++a) out.u[a][i] = static_cast<double>(inv4pi * u[a]);
    if (gradient)
      for (int k = 0; k < 9; ++k) out.du[k][i] = static_cast<double>(inv4pi * du[k]);
  }
  return out;
}

ParticleSet random_cube(std::size_t n, std::uint64_t seed, double sigma) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  if (sigma <= 0) sigma = std::cbrt(1.0 / static_cast<double>(n));
  ParticleSet p;
  p.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    double g[3] = {normal(rng), normal(rng), normal(rng)};
    const double norm = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    const double mag = 1.5 * sigma * sigma * unit(rng) / norm;
    const double x = unit(rng), y = unit(rng), z = unit(rng);
    p.push_back(x, y, z, g[0] * mag, g[1] * mag, g[2] * mag, sigma);
  }
  return p;
}

Points random_points(std::size_t n, std::uint64_t seed, double lo, double hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  Points p;
  for (std::size_t i = 0; i < n; ++i) {
    const double x = u(rng), y = u(rng), z = u(rng);
    p.push_back(x, y, z);
  }
  return p;
}

ParticleSet scaled(ParticleSet p, double s) {
  for (std::size_t i = 0; i < p.size(); ++i) {
    p.x[i] *= s;
    p.y[i] *= s;
    p.z[i] *= s;
    p.sigma[i] *= s;
    p.gx[i] *= s * s;
    p.gy[i] *= s * s;
    p.gz[i] *= s * s;
  }
  return p;
}

namespace {

template <std::size_t K>
double rel_l2(const std::array<std::vector<double>, K>& a,
              const std::array<std::vector<double>, K>& b) {
  long double num = 0, den = 0;
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t i = 0; i < b[k].size(); ++i) {
      const long double d = (long double)a[k][i] - b[k][i];
      num += d * d;
      den += (long double)b[k][i] * b[k][i];
    }
  return static_cast<double>(std::sqrt(num / den));
}

template <std::size_t K>
double mean_rel(const std::array<std::vector<double>, K>& a,
                const std::array<std::vector<double>, K>& b) {
  const std::size_t n = b[0].size();
  long double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    long double num = 0, den = 0;
    for (std::size_t k = 0; k < K; ++k) {
      const long double d = (long double)a[k][i] - b[k][i];
      num += d * d;
      den += (long double)b[k][i] * b[k][i];
    }
    sum += std::sqrt(num / den);
  }
  return static_cast<double>(sum / n);
}

}  // namespace

double relative_l2_velocity(const VelocityField& a, const VelocityField& b) {
  return rel_l2(a.u, b.u);
}
double relative_l2_gradient(const VelocityField& a, const VelocityField& b) {
  return rel_l2(a.du, b.du);
}
double mean_relative_velocity(const VelocityField& a, const VelocityField& b) {
  return mean_rel(a.u, b.u);
}
double mean_relative_gradient(const VelocityField& a, const VelocityField& b) {
  return mean_rel(a.du, b.du);
}

}  // namespace vortex::testing
