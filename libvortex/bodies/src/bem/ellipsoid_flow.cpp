#include "vortex/bodies/ellipsoid_flow.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "vortex/bodies/sheet.hpp"

namespace vortex::bodies {

namespace {

// alpha_i by the trapezoidal rule in s = ln(l): the integrand times l decays exponentially at
// both ends, so the rule converges exponentially (to rounding with this step and range).
double alpha_integral(const double axes[3], int i) {
  const double abc = axes[0] * axes[1] * axes[2];
  const double scale =
      std::log(std::min({axes[0], axes[1], axes[2]}) * std::max({axes[0], axes[1], axes[2]}));
  const double ds = 0.02;
  double sum = 0;
  for (double s = scale - 60; s <= scale + 60; s += ds) {
    const double l = std::exp(s);
    const double q = (axes[0] * axes[0] + l) * (axes[1] * axes[1] + l) * (axes[2] * axes[2] + l);
    sum += l / ((axes[i] * axes[i] + l) * std::sqrt(q));
  }
  return abc * sum * ds;
}

}  // namespace

EllipsoidFlow::EllipsoidFlow(double a, double b, double c) : axes_{a, b, c} {
  if (!(a > 0 && b > 0 && c > 0))
    throw std::invalid_argument("EllipsoidFlow: semi-axes must be > 0");
  for (int i = 0; i < 3; ++i) {
    alpha_[i] = alpha_integral(axes_, i);
    k_[i] = alpha_[i] / (2 - alpha_[i]);
  }
}

Vec3 EllipsoidFlow::project(const Vec3& x) const {
  const double f = x.x * x.x / (axes_[0] * axes_[0]) + x.y * x.y / (axes_[1] * axes_[1]) +
                   x.z * x.z / (axes_[2] * axes_[2]);
  return (1 / std::sqrt(f)) * x;
}

Vec3 EllipsoidFlow::normal(const Vec3& p) const {
  return normalized(
      {p.x / (axes_[0] * axes_[0]), p.y / (axes_[1] * axes_[1]), p.z / (axes_[2] * axes_[2])});
}

Vec3 EllipsoidFlow::slip(const Vec3& p, const Vec3& u) const {
  const Vec3 n = normal(p);
  const double comp[3] = {u.x, u.y, u.z};
  const Vec3 axis[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  Vec3 s;
  for (int i = 0; i < 3; ++i) s += ((1 + k_[i]) * comp[i]) * (axis[i] - dot(axis[i], n) * n);
  return s;
}

Vec3 EllipsoidFlow::sheet(const Vec3& p, const Vec3& u) const {
  return cross(normal(p), slip(p, u));
}

SheetError sheet_error(const Surface& s, const std::vector<double>& gamma,
                       const EllipsoidFlow& exact, const Vec3& stream) {
  const std::vector<Vec3> g = sheet_vectors(s, gamma);
  std::vector<Vec3> ref(s.size());
  double scale = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    ref[i] = exact.sheet(exact.project(s.panels[i].centroid), stream);
    scale = std::max(scale, norm(ref[i]));
  }
  SheetError e;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double d = norm(g[i] - ref[i]) / scale;
    e.mean += d / static_cast<double>(s.size());
    e.max = std::max(e.max, d);
  }
  return e;
}

Vec3 EllipsoidFlow::impulse(const Vec3& stream) const {
  const double volume = 4 * M_PI * axes_[0] * axes_[1] * axes_[2] / 3;
  return {-(1 + k_[0]) * volume * stream.x, -(1 + k_[1]) * volume * stream.y,
          -(1 + k_[2]) * volume * stream.z};
}

}  // namespace vortex::bodies
