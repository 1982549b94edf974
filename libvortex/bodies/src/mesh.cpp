#include "vortex/bodies/mesh.hpp"

#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>

#include "vortex/bodies/vec3.hpp"

namespace vortex::bodies {

namespace {

Vec3 vertex(const TriangleMesh& m, int i) {
  const auto& v = m.vertices[static_cast<std::size_t>(i)];
  return {v[0], v[1], v[2]};
}

std::uint64_t edge_key(int a, int b) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) << 32) |
         static_cast<std::uint32_t>(b);
}

std::string edge_name(int a, int b) {
  return "edge (" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

void check_elements(const TriangleMesh& mesh, const std::string& what) {
  if (mesh.triangles.empty()) throw MeshError(what + ": the mesh has no triangles");
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    for (double c : mesh.vertices[i])
      if (!std::isfinite(c))
        throw MeshError(what + ": vertex " + std::to_string(i) + " has a non-finite coordinate");
  const int nv = static_cast<int>(mesh.vertices.size());
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    for (int v : tri)
      if (v < 0 || v >= nv)
        throw MeshError(what + ": triangle " + std::to_string(t) + " refers to vertex " +
                        std::to_string(v) + " of " + std::to_string(nv));
    const Vec3 a = vertex(mesh, tri[0]), b = vertex(mesh, tri[1]), c = vertex(mesh, tri[2]);
    const double scale = std::max(dot(b - a, b - a), dot(c - a, c - a));
    if (!(norm(cross(b - a, c - a)) > 1e-12 * scale))
      throw MeshError(what + ": triangle " + std::to_string(t) + " has zero area");
  }
}

// Every directed edge once, and its reverse once: closed and consistently oriented.
void check_edges(const TriangleMesh& mesh, const std::string& what) {
  std::unordered_map<std::uint64_t, int> directed;
  directed.reserve(3 * mesh.size());
  for (std::size_t t = 0; t < mesh.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
      const auto [it, fresh] = directed.emplace(edge_key(a, b), static_cast<int>(t));
      if (!fresh)
        throw MeshError(what + ": inconsistent orientation or non-manifold " + edge_name(a, b) +
                        ": triangles " + std::to_string(it->second) + " and " + std::to_string(t) +
                        " run it in the same direction");
    }
  for (const auto& [key, t] : directed) {
    const int a = static_cast<int>(key >> 32), b = static_cast<int>(key & 0xffffffffu);
    if (!directed.count(edge_key(b, a)))
      throw MeshError(what + ": open mesh: " + edge_name(a, b) + " of triangle " +
                      std::to_string(t) + " has no neighbour across it");
  }
}

}  // namespace

double enclosed_volume(const TriangleMesh& mesh) {
  double v = 0;
  for (const auto& tri : mesh.triangles)
    v += dot(vertex(mesh, tri[0]), cross(vertex(mesh, tri[1]), vertex(mesh, tri[2])));
  return v / 6;
}

void check_closed_surface(const TriangleMesh& mesh, const std::string& what) {
  check_elements(mesh, what);
  check_edges(mesh, what);
  if (!(enclosed_volume(mesh) > 0))
    throw MeshError(what + ": inverted mesh: the triangles face into the body (enclosed volume " +
                    std::to_string(enclosed_volume(mesh)) + " <= 0)");
}

void flip_orientation(TriangleMesh& mesh) {
  for (auto& tri : mesh.triangles) std::swap(tri[1], tri[2]);
}

}  // namespace vortex::bodies
