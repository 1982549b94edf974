#include "vortex/bodies/mesh.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <sstream>
#include <utility>

#include "vortex/math/panel_influence.hpp"
#include "vortex/math/vec3.hpp"
#include "vortex/neighbor_search.hpp"

namespace vortex::bodies {

namespace {

Vec3 vertex(const TriangleMesh& m, int i) {
  const auto& v = m.vertices[static_cast<std::size_t>(i)];
  return {v[0], v[1], v[2]};
}

std::string edge_name(int a, int b) {
  return "edge (" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

std::string number(double v) {
  std::ostringstream o;
  o.precision(6);
  o << v;
  return o.str();
}

// The mesh in coordinates relative to the centre of its bounding box, divided by the box's longest
// side: the checks below then use tolerances that do not depend on the mesh's size or place.
struct Normalized {
  std::vector<Vec3> v;
  Vec3 center;
  double extent = 0;
};

void check_elements(const TriangleMesh& mesh, const std::string& what) {
  if (mesh.triangles.empty()) throw MeshError(what + ": the mesh has no triangles");
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    for (double c : mesh.vertices[i]) {
      if (!std::isfinite(c))
        throw MeshError(what + ": vertex " + std::to_string(i) + " has a non-finite coordinate");
      if (std::abs(c) > kMaxMeshCoordinate)
        throw MeshError(what + ": vertex " + std::to_string(i) + " has the coordinate " +
                        number(c) +
                        ", outside the supported range |x| <= " + number(kMaxMeshCoordinate));
    }
  const auto nv = static_cast<long long>(mesh.vertices.size());
  for (std::size_t t = 0; t < mesh.size(); ++t)
    for (int v : mesh.triangles[t])
      if (v < 0 || v >= nv)
        throw MeshError(what + ": triangle " + std::to_string(t) + " refers to vertex " +
                        std::to_string(v) + " of " + std::to_string(nv));
}

Normalized normalize(const TriangleMesh& mesh, const std::string& what) {
  Vec3 lo = vertex(mesh, mesh.triangles[0][0]), hi = lo;
  for (const auto& tri : mesh.triangles)
    for (int i : tri) {
      const Vec3 p = vertex(mesh, i);
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
    }
  Normalized n;
  n.center = 0.5 * (lo + hi);
  n.extent = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  if (!(n.extent >= kMinMeshExtent))
    throw MeshError(what + ": the mesh's size (the longest side of its bounding box, " +
                    number(n.extent) + ") is below the supported " + number(kMinMeshExtent));
  n.v.resize(mesh.vertices.size());
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    n.v[i] = (1 / n.extent) * (vertex(mesh, static_cast<int>(i)) - n.center);
  return n;
}

// Zero-area triangles: the area against the longest edge (rounding of the triangle's own size),
// and edges at the rounding of the coordinates.
void check_areas(const TriangleMesh& mesh, const Normalized& n, const std::string& what) {
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const Vec3 a = n.v[tri[0]], b = n.v[tri[1]], c = n.v[tri[2]];
    const double longest = std::max({dot(b - a, b - a), dot(c - a, c - a), dot(c - b, c - b)});
    if (!(norm(cross(b - a, c - a)) > 1e-12 * longest) || !(longest > 1e-24))
      throw MeshError(what + ": triangle " + std::to_string(t) + " has zero area");
  }
}

// Two vertices of the triangles at the same place: a surface given twice, or a seam whose sides do
// not share their vertices (the edge checks would not see either).
void check_coincident(const TriangleMesh& mesh, const std::string& what) {
  std::vector<int> used;
  used.reserve(3 * mesh.size());
  for (const auto& tri : mesh.triangles) used.insert(used.end(), tri.begin(), tri.end());
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  std::sort(used.begin(), used.end(), [&](int a, int b) {
    return mesh.vertices[a] != mesh.vertices[b] ? mesh.vertices[a] < mesh.vertices[b] : a < b;
  });
  for (std::size_t k = 0; k + 1 < used.size(); ++k)
    if (mesh.vertices[used[k]] == mesh.vertices[used[k + 1]])
      throw MeshError(what + ": vertices " + std::to_string(std::min(used[k], used[k + 1])) +
                      " and " + std::to_string(std::max(used[k], used[k + 1])) +
                      " are at the same place (a duplicated surface, or a seam that does not "
                      "share its vertices)");
}

// Every edge shared by exactly two triangles that run it in opposite directions: closed, manifold
// and consistently oriented. Returns the pairs of triangles across the edges.
std::vector<std::pair<int, int>> check_edges(const TriangleMesh& mesh, const std::string& what) {
  // (smaller vertex, larger vertex, triangle, whether the triangle runs it from smaller to larger)
  std::vector<std::array<int, 4>> edges;
  edges.reserve(3 * mesh.size());
  for (std::size_t t = 0; t < mesh.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
      edges.push_back({std::min(a, b), std::max(a, b), static_cast<int>(t), a < b ? 1 : 0});
    }
  std::sort(edges.begin(), edges.end());
  std::vector<std::pair<int, int>> pairs;
  pairs.reserve(edges.size() / 2);
  for (std::size_t e = 0; e < edges.size();) {
    std::size_t end = e + 1;
    while (end < edges.size() && edges[end][0] == edges[e][0] && edges[end][1] == edges[e][1])
      ++end;
    const auto& one = edges[e];
    const int a = one[3] ? one[0] : one[1], b = one[3] ? one[1] : one[0];
    if (end - e == 1)
      throw MeshError(what + ": open mesh: " + edge_name(a, b) + " of triangle " +
                      std::to_string(one[2]) + " has no neighbour across it");
    if (end - e > 2) {
      std::string list;
      for (std::size_t k = e; k < end; ++k)
        list += (k == e ? "" : ", ") + std::to_string(edges[k][2]);
      throw MeshError(what + ": non-manifold " + edge_name(one[0], one[1]) + ": shared by " +
                      std::to_string(end - e) + " triangles (" + list + "), not 2");
    }
    const auto& two = edges[e + 1];
    if (one[3] == two[3])
      throw MeshError(what + ": inconsistent orientation at " + edge_name(a, b) + ": triangles " +
                      std::to_string(one[2]) + " and " + std::to_string(two[2]) +
                      " run it in the same direction");
    pairs.emplace_back(one[2], two[2]);
    e = end;
  }
  return pairs;
}

// The connected surfaces: each triangle's component, numbered by their smallest triangles.
std::vector<int> components(std::size_t triangles, const std::vector<std::pair<int, int>>& pairs,
                            int& count) {
  std::vector<int> parent(triangles);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int t) {
    while (parent[t] != t) t = parent[t] = parent[parent[t]];
    return t;
  };
  for (const auto& [s, t] : pairs) {
    const int a = root(s), b = root(t);
    parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<int> label(triangles, -1), of_root(triangles, -1);
  count = 0;
  for (std::size_t t = 0; t < triangles; ++t) {
    const int r = root(static_cast<int>(t));
    if (of_root[r] < 0) of_root[r] = count++;
    label[t] = of_root[r];
  }
  return label;
}

// Whether the segment pq passes through the inside of triangle abc, clear of its edges and of
// its plane by a margin relative to their lengths (touching is not crossing).
bool crosses(const Vec3& p, const Vec3& q, const Vec3& a, const Vec3& b, const Vec3& c) {
  const Vec3 u = normalized(cross(b - a, c - a));
  const double size = std::max({norm(b - a), norm(c - a), norm(c - b), norm(q - p)});
  const double margin = 1e-9 * size;
  const double hp = dot(u, p - a), hq = dot(u, q - a);
  if (!((hp > margin && hq < -margin) || (hp < -margin && hq > margin))) return false;
  const Vec3 x = p + (hp / (hp - hq)) * (q - p);
  const Vec3 corner[3] = {a, b, c};
  for (int k = 0; k < 3; ++k) {
    const Vec3 e = corner[(k + 1) % 3] - corner[k];
    if (!(dot(u, cross(e, x - corner[k])) > margin * norm(e))) return false;
  }
  return true;
}

// Whether triangles s and t (no shared edge) cross: an edge of one through the other's face. With
// a shared vertex only the edges opposite it can cross.
bool triangles_cross(const TriangleMesh& mesh, const Normalized& n, int s, int t) {
  const auto& ts = mesh.triangles[s];
  const auto& tt = mesh.triangles[t];
  const auto edges_cross = [&](const std::array<int, 3>& from, const std::array<int, 3>& into) {
    const Vec3 a = n.v[into[0]], b = n.v[into[1]], c = n.v[into[2]];
    for (int k = 0; k < 3; ++k) {
      const int p = from[k], q = from[(k + 1) % 3];
      if (std::count(into.begin(), into.end(), p) || std::count(into.begin(), into.end(), q))
        continue;
      if (crosses(n.v[p], n.v[q], a, b, c)) return true;
    }
    return false;
  };
  return edges_cross(ts, tt) || edges_cross(tt, ts);
}

// Triangles that cross each other, among the pairs whose centroids are close enough for their
// triangles to meet.
void check_intersections(const TriangleMesh& mesh, const Normalized& n, const std::string& what) {
  Points centroids;
  std::vector<double> reach(mesh.size());
  double widest = 0;
  for (std::size_t t = 0; t < mesh.size(); ++t) {
    const auto& tri = mesh.triangles[t];
    const Vec3 c = (1.0 / 3) * (n.v[tri[0]] + n.v[tri[1]] + n.v[tri[2]]);
    centroids.push_back(c.x, c.y, c.z);
    for (int i : tri) reach[t] = std::max(reach[t], norm(n.v[i] - c));
    widest = std::max(widest, reach[t]);
  }
  const NeighborSearch search(centroids);
  std::vector<int> found;
  for (std::size_t s = 0; s < mesh.size(); ++s) {
    search.query(centroids.x[s], centroids.y[s], centroids.z[s], (reach[s] + widest) * (1 + 1e-9),
                 found);
    for (int t : found) {
      if (t <= static_cast<int>(s)) continue;
      int shared = 0;
      for (int i : mesh.triangles[s])
        shared +=
            static_cast<int>(std::count(mesh.triangles[t].begin(), mesh.triangles[t].end(), i));
      if (shared >= 2) continue;  // neighbours across an edge
      if (triangles_cross(mesh, n, static_cast<int>(s), t))
        throw MeshError(what + ": triangles " + std::to_string(s) + " and " + std::to_string(t) +
                        " cross each other (a self-intersecting surface, or overlapping shells)");
    }
  }
}

// The winding number of the triangles of component `c` about x (about 1 inside that closed
// surface, 0 outside).
double winding(const TriangleMesh& mesh, const Normalized& n, const std::vector<int>& label, int c,
               const Vec3& x) {
  double omega = 0;
  for (std::size_t t = 0; t < mesh.size(); ++t)
    if (label[t] == c) {
      const auto& tri = mesh.triangles[t];
      omega += solid_angle(x, n.v[tri[0]], n.v[tri[1]], n.v[tri[2]]);
    }
  return std::abs(omega) / (4 * M_PI);
}

// One body: a single closed surface. Several are refused, nested ones (a hollow body) named so.
void check_one_surface(const TriangleMesh& mesh, const Normalized& n, const std::vector<int>& label,
                       int count, const std::string& what) {
  if (count == 1) return;
  std::vector<int> first(count, -1);
  for (std::size_t t = 0; t < mesh.size(); ++t)
    if (first[label[t]] < 0) first[label[t]] = static_cast<int>(t);
  const int shown = std::min(count, 8);  // enough to name one nested pair in common cases
  for (int a = 0; a < shown; ++a)
    for (int b = 0; b < shown; ++b)
      if (a != b && winding(mesh, n, label, a, n.v[mesh.triangles[first[b]][0]]) > 0.5)
        throw MeshError(what + ": the surface of triangle " + std::to_string(first[b]) +
                        " lies inside the surface of triangle " + std::to_string(first[a]) +
                        " (a hollow body): the mesh must be one closed surface");
  throw MeshError(what + ": " + std::to_string(count) +
                  " separate closed surfaces (the second starts at triangle " +
                  std::to_string(first[1]) + "): the mesh must bound one body");
}

}  // namespace

double enclosed_volume(const TriangleMesh& mesh) {
  if (mesh.triangles.empty()) return 0;
  // About a point of the mesh: the terms then carry no offset of the body from the origin.
  const Vec3 o = vertex(mesh, mesh.triangles[0][0]);
  double v = 0;
  for (const auto& tri : mesh.triangles)
    v += dot(vertex(mesh, tri[0]) - o, cross(vertex(mesh, tri[1]) - o, vertex(mesh, tri[2]) - o));
  return v / 6;
}

void check_closed_surface(const TriangleMesh& mesh, const std::string& what) {
  check_elements(mesh, what);
  const Normalized n = normalize(mesh, what);
  check_areas(mesh, n, what);
  check_coincident(mesh, what);
  const std::vector<std::pair<int, int>> pairs = check_edges(mesh, what);
  int count = 0;
  const std::vector<int> label = components(mesh.size(), pairs, count);
  check_intersections(mesh, n, what);
  check_one_surface(mesh, n, label, count, what);
  double volume = 0;
  for (const auto& tri : mesh.triangles)
    volume += dot(n.v[tri[0]], cross(n.v[tri[1]], n.v[tri[2]]));
  volume /= 6;
  if (!(volume > 0))
    throw MeshError(what + ": inverted mesh: the triangles face into the body (enclosed volume " +
                    number(volume * n.extent * n.extent * n.extent) + " <= 0)");
}

void flip_orientation(TriangleMesh& mesh) {
  for (auto& tri : mesh.triangles) std::swap(tri[1], tri[2]);
}

}  // namespace vortex::bodies
