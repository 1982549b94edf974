#include "vortex/bodies/surface.hpp"

#include <algorithm>
#include <utility>

namespace vortex::bodies {

Surface make_surface(TriangleMesh mesh, const std::string& what) {
  check_closed_surface(mesh, what);
  Surface s;
  s.mesh = std::move(mesh);
  s.panels.reserve(s.mesh.size());
  auto vertex = [&](int i) {
    const auto& v = s.mesh.vertices[static_cast<std::size_t>(i)];
    return Vec3{v[0], v[1], v[2]};
  };
  for (const auto& t : s.mesh.triangles) {
    s.panels.push_back(make_panel(vertex(t[0]), vertex(t[1]), vertex(t[2])));
    s.max_diameter = std::max(s.max_diameter, s.panels.back().diameter);
    s.total_area += s.panels.back().area;
  }
  s.volume = enclosed_volume(s.mesh);
  return s;
}

Points panel_centroids(const Surface& surface) {
  Points c;
  for (const Panel& p : surface.panels) c.push_back(p.centroid.x, p.centroid.y, p.centroid.z);
  return c;
}

Points quadrature_points(const Surface& surface, const TriangleRule& rule) {
  Points pts;
  pts.resize(surface.size() * rule.size());
  std::size_t k = 0;
  for (const Panel& p : surface.panels)
    for (const auto& b : rule.bary) {
      const Vec3 y = panel_point(p, b[0], b[1], b[2]);
      pts.x[k] = y.x;
      pts.y[k] = y.y;
      pts.z[k] = y.z;
      ++k;
    }
  return pts;
}

}  // namespace vortex::bodies
