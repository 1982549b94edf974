#pragma once
// A checked closed mesh with the frame of every panel, and the panels' quadrature points.

#include <string>
#include <vector>

#include "vortex/bodies/mesh.hpp"
#include "vortex/bodies/quadrature.hpp"
#include "vortex/math/panel.hpp"
#include "vortex/particles.hpp"

namespace vortex::bodies {

struct Surface {
  TriangleMesh mesh;
  std::vector<Panel> panels;
  double max_diameter = 0;
  double total_area = 0;
  double volume = 0;

  std::size_t size() const { return panels.size(); }
};

// Checks the mesh (check_closed_surface: throws MeshError naming `what`) and computes the panels.
Surface make_surface(TriangleMesh mesh, const std::string& what = "mesh");

// The panels' centroids, in panel order.
Points panel_centroids(const Surface& surface);

// The rule's points on every panel, panel-major (panel i owns [i * rule.size(), (i+1) *
// rule.size())).
Points quadrature_points(const Surface& surface, const TriangleRule& rule);

}  // namespace vortex::bodies
