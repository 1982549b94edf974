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

// The coordinates a mesh may have: |x| <= kMaxMeshCoordinate, and a bounding box whose longest
// side is at least kMinMeshExtent. Areas' squares (four lengths multiplied) then stay normal
// doubles; the checks themselves work in coordinates relative to the box and scaled by its side.
inline constexpr double kMaxMeshCoordinate = 1e60;
inline constexpr double kMinMeshExtent = 1e-60;

// Volume enclosed by a closed mesh, positive when the triangles face outwards.
double enclosed_volume(const TriangleMesh& mesh);

// Throws MeshError unless the mesh bounds one body with a closed, consistently and outward
// oriented surface: vertex indices in range; finite coordinates within the range above; no
// zero-area triangle; no two vertices at the same place (a duplicated surface); every edge shared
// by exactly two triangles that run it in opposite directions (manifold, closed, oriented); one
// connected surface (not several bodies, nor a shell inside another: a hollow body); no two
// triangles that cross each other (edges through faces: a self-intersecting surface or
// overlapping shells; surfaces that overlap only within a plane are not detected); and a positive
// enclosed volume. `what` names the mesh in the message (a file name, a generator).
void check_closed_surface(const TriangleMesh& mesh, const std::string& what = "mesh");

// Flips every triangle (for a mesh that faces into the body).
void flip_orientation(TriangleMesh& mesh);

}  // namespace vortex::bodies
