#pragma once
// A triangulated closed surface: shared vertices and triangles of vertex indices, each triangle
// ordered so that (v1 - v0) x (v2 - v0) points out of the body (into the fluid).

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace vortex::bodies {

struct TriangleMesh {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<int, 3>> triangles;

  std::size_t size() const { return triangles.size(); }
};

// A mesh that cannot bound a body: the message names the problem and the offending element.
class MeshError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Volume enclosed by a closed mesh, positive when the triangles face outwards.
double enclosed_volume(const TriangleMesh& mesh);

// Throws MeshError unless the mesh is a closed, consistently and outward oriented surface:
// vertex indices in range, finite coordinates, no zero-area triangle, every edge shared by exactly
// two triangles that run it in opposite directions, and a positive enclosed volume. `what` names
// the mesh in the message (a file name, a generator).
void check_closed_surface(const TriangleMesh& mesh, const std::string& what = "mesh");

// Flips every triangle (for a mesh that faces into the body).
void flip_orientation(TriangleMesh& mesh);

}  // namespace vortex::bodies
