#include "vortex/bodies/mesh_generators.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "vortex/math/vec3.hpp"

namespace vortex::bodies {

namespace {

Vec3 to_vec(const std::array<double, 3>& v) {
  return {v[0], v[1], v[2]};
}

// The 12 icosahedron vertices and its 20 faces (the triples at mutual distance 2).
TriangleMesh icosahedron() {
  const double p = (1 + std::sqrt(5.0)) / 2;
  TriangleMesh m;
  for (double s : {-1.0, 1.0})
    for (double t : {-p, p}) {
      m.vertices.push_back({0, s, t});
      m.vertices.push_back({s, t, 0});
      m.vertices.push_back({t, 0, s});
    }
  const int n = static_cast<int>(m.vertices.size());
  auto edge = [&](int i, int j) {
    const Vec3 d = to_vec(m.vertices[i]) - to_vec(m.vertices[j]);
    return std::abs(dot(d, d) - 4) < 1e-9;
  };
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = j + 1; k < n; ++k)
        if (edge(i, j) && edge(j, k) && edge(i, k)) m.triangles.push_back({i, j, k});
  return m;
}

// Makes every triangle face away from the origin (valid for star-shaped meshes about it).
void orient_outwards(TriangleMesh& m) {
  for (auto& t : m.triangles) {
    const Vec3 a = to_vec(m.vertices[t[0]]), b = to_vec(m.vertices[t[1]]),
               c = to_vec(m.vertices[t[2]]);
    if (dot(cross(b - a, c - a), a + b + c) < 0) std::swap(t[1], t[2]);
  }
}

// Geodetic latitude of a spheroid (axis ratio c/a) whose isometric latitude is psi. The
// isometric latitude increases with the latitude, so bisection always finds it.
double latitude_of_isometric(double psi, double ratio) {
  const double e2 = 1 - ratio * ratio;  // < 0 for a prolate spheroid
  auto isometric = [&](double phi) {
    const double s = std::sin(phi);
    const double ecc = e2 >= 0 ? -std::sqrt(e2) * std::atanh(std::sqrt(e2) * s)
                               : std::sqrt(-e2) * std::atan(std::sqrt(-e2) * s);
    return std::atanh(s) + ecc;
  };
  double lo = -M_PI / 2, hi = M_PI / 2;
  for (int it = 0; it < 80; ++it) {
    const double mid = 0.5 * (lo + hi);
    (isometric(mid) < psi ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

std::array<double, 3> equal_angle_point(const std::array<double, 3>& p, double a, double c) {
  const double rho = std::hypot(p[0], p[1]);
  if (rho < 1e-15) return {0, 0, p[2] > 0 ? c : -c};
  const double psi = std::atanh(std::clamp(p[2], -1.0, 1.0));  // isometric latitude of the sphere
  const double phi = latitude_of_isometric(psi, c / a);
  const double e2 = 1 - (c / a) * (c / a);
  const double s = std::sin(phi), nu = a / std::sqrt(1 - e2 * s * s);
  const double r = nu * std::cos(phi);
  return {r * p[0] / rho, r * p[1] / rho, nu * (1 - e2) * s};
}

}  // namespace

TriangleMesh icosphere(int f) {
  if (f < 1)
    throw std::invalid_argument("icosphere: frequency must be >= 1, got " + std::to_string(f));
  const TriangleMesh base = icosahedron();
  TriangleMesh m;
  // Points shared by neighbouring faces are found by their rounded coordinates.
  std::map<std::tuple<long long, long long, long long>, int> index;
  auto point = [&](const Vec3& p) {
    const double q = 1 << 24;
    const auto key =
        std::make_tuple(std::llround(p.x * q), std::llround(p.y * q), std::llround(p.z * q));
    const auto [it, fresh] = index.emplace(key, static_cast<int>(m.vertices.size()));
    if (fresh) {
      const Vec3 u = normalized(p);
      m.vertices.push_back({u.x, u.y, u.z});
    }
    return it->second;
  };
  for (const auto& face : base.triangles) {
    const Vec3 A = to_vec(base.vertices[face[0]]), B = to_vec(base.vertices[face[1]]),
               C = to_vec(base.vertices[face[2]]);
    auto at = [&](int i, int j) { return point((1.0 / f) * ((f - i - j) * A + i * B + j * C)); };
    for (int i = 0; i < f; ++i)
      for (int j = 0; i + j < f; ++j) {
        m.triangles.push_back({at(i, j), at(i + 1, j), at(i, j + 1)});
        if (i + j + 2 <= f) m.triangles.push_back({at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
      }
  }
  if (m.vertices.size() != static_cast<std::size_t>(10 * f * f + 2))
    throw std::logic_error("icosphere: vertex merge failed");
  orient_outwards(m);
  return m;
}

TriangleMesh sphere(int frequency, double radius) {
  return ellipsoid(frequency, radius, radius, radius);
}

TriangleMesh ellipsoid(int frequency, double a, double b, double c, EllipsoidMap map) {
  if (!(a > 0 && b > 0 && c > 0) || !std::isfinite(a * b * c))
    throw std::invalid_argument("ellipsoid: semi-axes must be positive and finite");
  if (map == EllipsoidMap::EqualAngle && a != b)
    throw std::invalid_argument("ellipsoid: the equal-angle map needs a spheroid (a == b)");
  TriangleMesh m = icosphere(frequency);
  for (auto& v : m.vertices)
    v = map == EllipsoidMap::Affine ? std::array<double, 3>{a * v[0], b * v[1], c * v[2]}
                                    : equal_angle_point(v, a, c);
  return m;
}

EllipsoidMap parse_ellipsoid_map(const std::string& name) {
  if (name == "affine") return EllipsoidMap::Affine;
  if (name == "equal-angle") return EllipsoidMap::EqualAngle;
  throw std::invalid_argument("unknown ellipsoid map '" + name + "' (use affine or equal-angle)");
}

}  // namespace vortex::bodies
