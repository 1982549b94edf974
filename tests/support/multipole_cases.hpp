#pragma once
// Shared by the multipole tests: random clusters of vortex particles, their direct singular sum,
// P2M and the velocity expansion of a cluster, norms, and the truncation tails that bound the
// expansions' error.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "vortex/math/pair_kernel.hpp"
#include "vortex/multipole/multipole.hpp"

namespace mp = vortex::multipole;
using vortex::VelocityAccumulator;
using vortex::VelocityGradientAccumulator;

namespace multipole_cases {

inline constexpr double kEps = std::numeric_limits<double>::epsilon();

struct Particles {
  std::vector<double> x, y, z, gx, gy, gz;
  int size() const { return static_cast<int>(x.size()); }
  void add(double px, double py, double pz, double qx, double qy, double qz) {
    x.push_back(px), y.push_back(py), z.push_back(pz);
    gx.push_back(qx), gy.push_back(qy), gz.push_back(qz);
  }
};

// Uniform in the cube [c - h, c + h]^3, strengths uniform in [-1, 1]^3.
inline Particles random_cube(unsigned seed, int n, const double c[3], double h) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Particles s;
  for (int i = 0; i < n; ++i)
    s.add(c[0] + h * u(gen), c[1] + h * u(gen), c[2] + h * u(gen), u(gen), u(gen), u(gen));
  return s;
}

inline VelocityGradientAccumulator<double> direct(const Particles& s, double tx, double ty,
                                                  double tz) {
  VelocityGradientAccumulator<double> acc;
  for (int j = 0; j < s.size(); ++j)
    vortex::add_pair_velocity_gradient<vortex::Core::Singular, double>(
        tx - s.x[j], ty - s.y[j], tz - s.z[j], s.gx[j], s.gy[j], s.gz[j], 1.0, vortex::DropAtZero{},
        acc);
  vortex::fold_rotation(acc);
  return acc;
}

inline std::vector<double> p2m_all(int p, const Particles& s, const double c[3]) {
  std::vector<double> M(mp::multipole_size(p), 0.0);
  for (int j = 0; j < s.size(); ++j)
    mp::p2m(p, s.x[j] - c[0], s.y[j] - c[1], s.z[j] - c[2], s.gx[j], s.gy[j], s.gz[j], M.data());
  return M;
}

inline std::vector<double> velocity_expansion(int p, const std::vector<double>& M) {
  std::vector<double> V(mp::velocity_expansion_size(p));
  mp::m2v(p, M.data(), V.data());
  return V;
}

inline double norm3(const double* v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}
inline double norm9(const double* v) {
  double s = 0;
  for (int k = 0; k < 9; ++k) s += v[k] * v[k];
  return std::sqrt(s);
}

// Largest distance of a source from c, and the sum of the strengths' norms.
inline std::pair<double, double> radius_and_strength(const Particles& s, const double c[3]) {
  double a = 0, G = 0;
  for (int j = 0; j < s.size(); ++j) {
    const double d[3] = {s.x[j] - c[0], s.y[j] - c[1], s.z[j] - c[2]};
    const double g[3] = {s.gx[j], s.gy[j], s.gz[j]};
    a = std::max(a, norm3(d));
    G += norm3(g);
  }
  return {a, G};
}

// Truncation bounds for a unit-strength source at distance <= a from the center and a target at
// distance R: the tail of 1/|x - y| is sum_{n>p} (1/n!) (-y.grad)^n (1/|x|), and every mixed
// directional derivative obeys |d_u1..d_uN (1/r)| <= N!/r^(N+1) (Banach: a symmetric multilinear
// form is bounded by its diagonal, here N! P_N/r^(N+1)). Hence per unit |G|
//   |du| <= S1 = sum_{n>p} (n+1) a^n/R^(n+2),  |d grad u|_F <= 3 S2,  S2 = sum_{n>p} (n+1)(n+2)
//   a^n/R^(n+3)
// (3 bounds the Frobenius norm of a 3x3 matrix by its largest entry).
inline double tail_s1(int p, double a, double R) {
  double s = 0;
  for (int n = p + 1; n < p + 400; ++n) s += (n + 1) * std::pow(a / R, n) / (R * R);
  return s;
}
inline double tail_s2(int p, double a, double R) {
  double s = 0;
  for (int n = p + 1; n < p + 400; ++n) s += (n + 1.0) * (n + 2) * std::pow(a / R, n) / (R * R * R);
  return s;
}

}  // namespace multipole_cases
