#include "vortex/bodies/sheet.hpp"

#include "vortex/math/panel_influence.hpp"

namespace vortex::bodies {

std::vector<Vec3> sheet_vectors(const Surface& s, const std::vector<double>& gamma) {
  std::vector<Vec3> g(s.size());
  for (std::size_t j = 0; j < s.size(); ++j)
    g[j] = gamma[2 * j] * s.panels[j].t1 + gamma[2 * j + 1] * s.panels[j].t2;
  return g;
}

Vec3 sheet_total_vorticity(const Surface& s, const std::vector<double>& gamma) {
  const std::vector<Vec3> g = sheet_vectors(s, gamma);
  Vec3 total;
  for (std::size_t j = 0; j < s.size(); ++j) total += s.panels[j].area * g[j];
  return total;
}

Vec3 sheet_impulse(const Surface& s, const std::vector<double>& gamma) {
  const std::vector<Vec3> g = sheet_vectors(s, gamma);
  Vec3 total;
  for (std::size_t j = 0; j < s.size(); ++j)
    total += (0.5 * s.panels[j].area) * cross(s.panels[j].centroid, g[j]);
  return total;
}

std::vector<Vec3> sheet_slip(const Surface& s, const std::vector<double>& gamma) {
  std::vector<Vec3> g = sheet_vectors(s, gamma);
  for (std::size_t j = 0; j < s.size(); ++j) g[j] = cross(g[j], s.panels[j].normal);
  return g;
}

std::vector<Vec3> sheet_velocity_direct(const Surface& s, const std::vector<double>& gamma,
                                        const Points& points, double near_distance) {
  const std::vector<Vec3> g = sheet_vectors(s, gamma);
  std::vector<Vec3> u(points.size());
  const auto m = static_cast<std::ptrdiff_t>(points.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t k = 0; k < m; ++k) {
    const Vec3 x{points.x[k], points.y[k], points.z[k]};
    Vec3 sum;
    for (std::size_t j = 0; j < s.size(); ++j)
      sum += panel_sheet_velocity(s.panels[j], g[j], x, near_distance);
    u[k] = sum;
  }
  return u;
}

}  // namespace vortex::bodies
