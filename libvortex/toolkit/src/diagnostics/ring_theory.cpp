#include "vortex/ring_theory.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vortex {

namespace {

constexpr double kEulerGamma = 0.57721566490153286061;

// Gauss-Legendre nodes and weights on [-1, 1], 8 points.
constexpr double kGlX[8] = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290,
                            -0.1834346424956498, 0.1834346424956498,  0.5255324099163290,
                            0.7966664774136267,  0.9602898564975363};
constexpr double kGlW[8] = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873,
                            0.3626837833783620, 0.3626837833783620, 0.3137066458778873,
                            0.2223810344533745, 0.1012285362903763};

// Composite 8-point Gauss-Legendre over [a, b] in `panels` panels.
template <class F>
double integrate(F&& f, double a, double b, int panels) {
  const double w = (b - a) / panels;
  double sum = 0;
  for (int p = 0; p < panels; ++p) {
    const double mid = a + (p + 0.5) * w;
    for (int k = 0; k < 8; ++k) sum += kGlW[k] * f(mid + 0.5 * w * kGlX[k]);
  }
  return 0.5 * w * sum;
}

// Exponential core vorticity, unit sigma, unit total: 3/(4 pi) exp(-rho^3).
double exponential_vorticity(double rho) {
  return 0.75 / M_PI * std::exp(-rho * rho * rho);
}

}  // namespace

double thin_ring_speed(double circulation, double radius, double a, double beta) {
  if (!(radius > 0) || !(a > 0))
    throw std::invalid_argument("thin_ring_speed: R and a must be > 0");
  return circulation / (4 * M_PI * radius) * (std::log(8 * radius / a) - beta);
}

double saffman_ring_speed(double circulation, double radius, double delta0, double nu, double t) {
  const double delta = std::sqrt(delta0 * delta0 + 4 * nu * t);
  return thin_ring_speed(circulation, radius, delta, kSaffmanGaussianBeta);
}

double filament_beta(Core core) {
  switch (core) {
    case Core::Exponential:
      return std::log(2.0) - kEulerGamma / 3;
    case Core::Gaussian:
      return 1 + 0.5 * (std::log(2.0) - kEulerGamma);
    case Core::RosenheadMoore:
      return 1.0;
    case Core::WinckelmansLeonard:
      return 0.5;
    case Core::Singular:
    default:
      throw std::invalid_argument("filament_beta: a singular core has no finite self-induction");
  }
}

ProjectedCore::ProjectedCore(Core core) : core_(core) {
  if (core == Core::Singular)
    throw std::invalid_argument("ProjectedCore: the singular core has no finite log potential");
  if (core != Core::Exponential) return;  // closed forms
  // phi(s) = 2 int_0^T g(sqrt(s^2 + t^2)) dt; g < 1e-90 beyond rho = 6.
  ds_ = 5e-4;
  s_max_ = 6.0;
  const int n = static_cast<int>(std::lround(s_max_ / ds_));
  phi_.resize(n + 1);
  for (int i = 0; i <= n; ++i) {
    const double s = i * ds_;
    const double t_max = std::sqrt(std::max(0.0, s_max_ * s_max_ - s * s));
    phi_[i] = t_max > 0
                  ? 2 * integrate([&](double t) { return exponential_vorticity(std::hypot(s, t)); },
                                  0.0, t_max, 24)
                  : 0.0;
  }
  // Cumulative mass inside s and log moment outside s, by the trapezoidal rule on the fine grid
  // (the integrands are smooth; the error is O(ds^2) ~ 1e-8).
  inner_mass_.assign(n + 1, 0.0);
  outer_log_.assign(n + 1, 0.0);
  for (int i = 1; i <= n; ++i) {
    const double s0 = (i - 1) * ds_, s1 = i * ds_;
    inner_mass_[i] = inner_mass_[i - 1] + 0.5 * ds_ * 2 * M_PI * (phi_[i - 1] * s0 + phi_[i] * s1);
  }
  auto log_term = [&](int i) {
    const double s = i * ds_;
    return s > 0 ? phi_[i] * std::log(s) * 2 * M_PI * s : 0.0;
  };
  for (int i = n - 1; i >= 0; --i)
    outer_log_[i] = outer_log_[i + 1] + 0.5 * ds_ * (log_term(i) + log_term(i + 1));
  // Normalize the small quadrature loss of total circulation.
  const double total = inner_mass_[n];
  for (int i = 0; i <= n; ++i) {
    phi_[i] /= total;
    inner_mass_[i] /= total;
    outer_log_[i] /= total;
  }
}

double ProjectedCore::vorticity(double s) const {
  s = std::abs(s);
  switch (core_) {
    case Core::Gaussian:
      return std::exp(-0.5 * s * s) / (2 * M_PI);
    case Core::RosenheadMoore:
      return 1 / (M_PI * (s * s + 1) * (s * s + 1));
    case Core::WinckelmansLeonard:
      return 2 / (M_PI * std::pow(s * s + 1, 3));
    default: {
      if (s >= s_max_) return 0;
      const double x = s / ds_;
      const int i = static_cast<int>(x);
      const double f = x - i;
      return (1 - f) * phi_[i] + f * phi_[i + 1];
    }
  }
}

double ProjectedCore::log_potential(double d, double sigma) const {
  const double x = std::abs(d) / sigma;  // in core radii
  double q = 0;
  switch (core_) {
    case Core::Gaussian: {
      // Q = ln x + E1(x^2/2)/2 = (ln 2 - gamma)/2 + (1/2) sum_k (-1)^(k+1) u^k / (k k!), u = x^2/2.
      const double u = 0.5 * x * x;
      if (u < 2) {
        double term = 1, sum = 0;
        for (int k = 1; k < 40; ++k) {
          term *= u / k;
          sum += (k % 2 ? 1 : -1) * term / k;
        }
        q = 0.5 * (std::log(2.0) - kEulerGamma) + 0.5 * sum;
      } else {
        q = std::log(x) - 0.5 * std::expint(-u);
      }
      break;
    }
    case Core::RosenheadMoore:
      q = 0.5 * std::log1p(x * x);
      break;
    case Core::WinckelmansLeonard:
      q = 0.5 * std::log1p(x * x) - 0.5 / (1 + x * x);
      break;
    default: {
      // Q(x) = M(x) ln x + int_x^inf phi ln s dA (two-dimensional Newton's theorem).
      if (x >= s_max_) {
        q = std::log(x);
        break;
      }
      const double t = x / ds_;
      const int i = static_cast<int>(t);
      const double f = t - i;
      const double m = (1 - f) * inner_mass_[i] + f * inner_mass_[i + 1];
      const double b = (1 - f) * outer_log_[i] + f * outer_log_[i + 1];
      q = (x > 0 ? m * std::log(x) : 0.0) + b;
    }
  }
  return q + std::log(sigma);
}

CrossSection ring_cross_section(const RingOptions& o) {
  if (!(o.core_radius > 0) || !(o.gaussian_width > 0) || o.layers < 0)
    throw std::invalid_argument("ring_cross_section: bad ring options");
  const double h = o.core_radius / (o.layers + 0.5);
  const double delta = o.gaussian_width * o.core_radius;
  const double total = 1 - std::exp(-(o.core_radius * o.core_radius) / (delta * delta));
  CrossSection c;
  for (int k = 0; k <= o.layers; ++k) {
    const double r_in = k == 0 ? 0 : (k - 0.5) * h;
    const double r_out = (k + 0.5) * h;
    const double share = (std::exp(-(r_in * r_in) / (delta * delta)) -
                          std::exp(-(r_out * r_out) / (delta * delta))) /
                         total;
    const int count = k == 0 ? 1 : 6 * k;
    for (int i = 0; i < count; ++i) {
      const double phi = 2 * M_PI * i / count;
      c.dr.push_back(k * h * std::cos(phi));
      c.dz.push_back(k * h * std::sin(phi));
      c.weight.push_back(share / count);
    }
  }
  return c;
}

double log_mean_distance(const ProjectedCore& core, const CrossSection& c, double sigma,
                         double scale) {
  double sum = 0;
  const std::size_t m = c.weight.size();
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t l = 0; l < m; ++l) {
      const double d = scale * std::hypot(c.dr[k] - c.dr[l], c.dz[k] - c.dz[l]);
      sum += c.weight[k] * c.weight[l] * core.log_potential(d, sigma);
    }
  return sum;
}

double log_mean_distance_slope(const ProjectedCore& core, const CrossSection& c, double sigma) {
  const double e = 1e-3;
  return (log_mean_distance(core, c, sigma, std::exp(e)) -
          log_mean_distance(core, c, sigma, std::exp(-e))) /
         (2 * e);
}

double gaussian_log_mean_distance(const ProjectedCore& core, double delta, double sigma) {
  // The difference of two points of the distribution is Gaussian, omega ~ exp(-d^2 / (2 delta^2)).
  return integrate(
      [&](double d) {
        return d / (delta * delta) * std::exp(-0.5 * d * d / (delta * delta)) *
               core.log_potential(d, sigma);
      },
      0.0, 12 * delta, 96);
}

double gaussian_log_mean_distance_slope(const ProjectedCore& core, double delta, double sigma) {
  const double e = 1e-3;
  return (gaussian_log_mean_distance(core, delta * std::exp(e), sigma) -
          gaussian_log_mean_distance(core, delta * std::exp(-e), sigma)) /
         (2 * e);
}

double gaussian_particle_ring_speed(const ProjectedCore& core, double circulation, double radius,
                                    double delta, double sigma) {
  const double log_l = gaussian_log_mean_distance(core, delta, sigma);
  const double slope = gaussian_log_mean_distance_slope(core, delta, sigma);
  return circulation / (4 * M_PI * radius) * (std::log(8 * radius) - log_l - 1 + 0.5 * slope);
}

RingTheory particle_ring_theory(const RingOptions& o, Core core) {
  const ProjectedCore projected(core);
  const CrossSection section = ring_cross_section(o);
  const double h = o.core_radius / (o.layers + 0.5);
  const double sigma = o.overlap * h;
  RingTheory t;
  t.log_L = log_mean_distance(projected, section, sigma);
  t.slope_D = log_mean_distance_slope(projected, section, sigma);
  const double bracket = std::log(8 * o.radius) - t.log_L - 1 + 0.5 * t.slope_D;
  t.speed = o.circulation / (4 * M_PI * o.radius) * bracket;
  t.a_equivalent = std::exp(t.log_L + 0.75 - 0.5 * t.slope_D);
  t.delta0 = std::exp(t.log_L + 1 - 0.5 * t.slope_D - kSaffmanGaussianBeta);
  t.filament_speed = thin_ring_speed(o.circulation, o.radius, sigma, filament_beta(core));
  return t;
}

namespace {

// Per-particle cylindrical quantities about the axis.
struct Cylindrical {
  double z, rho, gamma_theta;
};

Cylindrical cylindrical(const ParticleSet& p, std::size_t i, const std::array<double, 3>& c,
                        const std::array<double, 3>& n) {
  const double r[3] = {p.x[i] - c[0], p.y[i] - c[1], p.z[i] - c[2]};
  const double z = r[0] * n[0] + r[1] * n[1] + r[2] * n[2];
  const double radial[3] = {r[0] - z * n[0], r[1] - z * n[1], r[2] - z * n[2]};
  const double rho =
      std::sqrt(radial[0] * radial[0] + radial[1] * radial[1] + radial[2] * radial[2]);
  if (rho == 0) return {z, 0, 0};
  // e_theta = n x e_rho
  const double e[3] = {(n[1] * radial[2] - n[2] * radial[1]) / rho,
                       (n[2] * radial[0] - n[0] * radial[2]) / rho,
                       (n[0] * radial[1] - n[1] * radial[0]) / rho};
  return {z, rho, p.gx[i] * e[0] + p.gy[i] * e[1] + p.gz[i] * e[2]};
}

std::array<double, 3> unit(const std::array<double, 3>& a) {
  const double n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  if (!(n > 0) || !std::isfinite(n))
    throw std::invalid_argument("ring axis must be a non-zero vector");
  return {a[0] / n, a[1] / n, a[2] / n};
}

struct RingSums {
  double w = 0, wz = 0, circulation = 0;
  void add(const Cylindrical& q) {
    if (q.rho == 0) return;
    w += q.rho * q.gamma_theta;
    wz += q.rho * q.gamma_theta * q.z;
    circulation += q.gamma_theta / (2 * M_PI * q.rho);
  }
  RingMeasure measure() const {
    RingMeasure m;
    m.impulse = 0.5 * w;
    m.circulation = circulation;
    m.position = w != 0 ? wz / w : 0;
    m.radius = circulation * m.impulse > 0 ? std::sqrt(m.impulse / (M_PI * circulation)) : 0;
    return m;
  }
};

}  // namespace

RingMeasure measure_ring(const ParticleSet& p, const std::array<double, 3>& center,
                         const std::array<double, 3>& axis) {
  const auto n = unit(axis);
  RingSums sums;
  for (std::size_t i = 0; i < p.size(); ++i) sums.add(cylindrical(p, i, center, n));
  return sums.measure();
}

std::array<RingMeasure, 2> measure_two_rings(const ParticleSet& p,
                                             const std::array<double, 3>& center,
                                             const std::array<double, 3>& axis,
                                             const std::array<RingMeasure, 2>& guess) {
  const auto n = unit(axis);
  std::vector<Cylindrical> q(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) q[i] = cylindrical(p, i, center, n);
  std::array<RingMeasure, 2> rings = guess;
  for (int pass = 0; pass < 4; ++pass) {
    RingSums sums[2];
    for (const Cylindrical& c : q) {
      double d[2];
      for (int k = 0; k < 2; ++k)
        d[k] = std::hypot(c.rho - rings[k].radius, c.z - rings[k].position);
      sums[d[1] < d[0] ? 1 : 0].add(c);
    }
    for (int k = 0; k < 2; ++k) rings[k] = sums[k].measure();
  }
  return rings;
}

double fitted_slope(const std::vector<double>& t, const std::vector<double>& y) {
  const std::size_t n = std::min(t.size(), y.size());
  if (n < 2) return 0;
  double mt = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mt += t[i];
    my += y[i];
  }
  mt /= n;
  my /= n;
  double stt = 0, sty = 0;
  for (std::size_t i = 0; i < n; ++i) {
    stt += (t[i] - mt) * (t[i] - mt);
    sty += (t[i] - mt) * (y[i] - my);
  }
  return stt > 0 ? sty / stt : 0;
}

}  // namespace vortex
