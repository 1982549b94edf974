#include "vortex/bodies/surface_pressure.hpp"

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace vortex::bodies {

namespace {

// The gradients of the three linear hat functions on a panel (constant on it), from its corners
// in the mesh's order: grad phi_i = n x e_i / (2 A), e_i the edge opposite corner i, taken along
// the corners' turn about n.
std::array<Vec3, 3> hat_gradients(const std::array<Vec3, 3>& x) {
  const Vec3 area2 = cross(x[1] - x[0], x[2] - x[0]);
  const double twice = norm(area2);
  const Vec3 n = (1 / twice) * area2;
  return {(1 / twice) * cross(n, x[2] - x[1]), (1 / twice) * cross(n, x[0] - x[2]),
          (1 / twice) * cross(n, x[1] - x[0])};
}

// The lowest vertex of each connected part of the mesh (a vertex on no triangle is a part).
std::vector<int> first_vertex_of_each_part(const TriangleMesh& mesh) {
  std::vector<int> parent(mesh.vertices.size());
  std::iota(parent.begin(), parent.end(), 0);
  const auto root = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (const auto& t : mesh.triangles)
    for (int c = 1; c < 3; ++c) {
      const int a = root(t[0]), b = root(t[c]);
      parent[std::max(a, b)] = std::min(a, b);
    }
  std::vector<int> firsts;
  for (int v = 0; v < static_cast<int>(parent.size()); ++v)
    if (root(v) == v) firsts.push_back(v);
  return firsts;
}

}  // namespace

struct SurfacePressure::Impl {
  const Surface* surface = nullptr;
  std::vector<std::array<Vec3, 3>> grads;  // per panel
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
  std::vector<double> vertex_weight;  // a third of the area of the panels around each vertex
  std::vector<double> p;
};

SurfacePressure::SurfacePressure(const Surface& s) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.surface = &s;
  const TriangleMesh& mesh = s.mesh;
  const auto nv = static_cast<Eigen::Index>(mesh.vertices.size());
  std::vector<Eigen::Triplet<double>> entries;
  entries.reserve(9 * mesh.size() + 1);
  m.grads.resize(mesh.size());
  m.vertex_weight.assign(mesh.vertices.size(), 0.0);
  for (std::size_t j = 0; j < mesh.size(); ++j) {
    std::array<Vec3, 3> x;
    for (int c = 0; c < 3; ++c) {
      const auto& v = mesh.vertices[mesh.triangles[j][c]];
      x[c] = {v[0], v[1], v[2]};
    }
    m.grads[j] = hat_gradients(x);
    const double area = s.panels[j].area;
    for (int a = 0; a < 3; ++a) {
      m.vertex_weight[mesh.triangles[j][a]] += area / 3;
      for (int b = 0; b < 3; ++b)
        entries.emplace_back(mesh.triangles[j][a], mesh.triangles[j][b],
                             area * dot(m.grads[j][a], m.grads[j][b]));
    }
  }
  Eigen::SparseMatrix<double> k(nv, nv);
  k.setFromTriplets(entries.begin(), entries.end());
  // A constant on each closed part of the surface is free: its first vertex is tied to 0 with a
  // weight of the operator's scale there (a vertex on no panel gets 1), and the solve takes the
  // mean out.
  for (const int v : first_vertex_of_each_part(mesh)) {
    const double d = k.coeff(v, v);
    k.coeffRef(v, v) = d > 0 ? 2 * d : 1.0;
  }
  m.ldlt.compute(k);
  if (m.ldlt.info() != Eigen::Success)
    throw std::runtime_error("surface pressure: the surface Laplacian of " +
                             std::to_string(mesh.size()) + " panels could not be factored");
}

SurfacePressure::~SurfacePressure() = default;
SurfacePressure::SurfacePressure(SurfacePressure&&) noexcept = default;
SurfacePressure& SurfacePressure::operator=(SurfacePressure&&) noexcept = default;

const std::vector<double>& SurfacePressure::solve(const std::vector<Vec3>& gradient) {
  Impl& m = *impl_;
  const TriangleMesh& mesh = m.surface->mesh;
  if (gradient.size() != mesh.size())
    throw std::invalid_argument("surface pressure: " + std::to_string(gradient.size()) +
                                " gradients for " + std::to_string(mesh.size()) + " panels");
  Eigen::VectorXd b = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(mesh.vertices.size()));
  for (std::size_t j = 0; j < mesh.size(); ++j)
    for (int a = 0; a < 3; ++a)
      b(mesh.triangles[j][a]) += m.surface->panels[j].area * dot(m.grads[j][a], gradient[j]);
  const Eigen::VectorXd x = m.ldlt.solve(b);
  double mean = 0, area = 0;
  for (Eigen::Index v = 0; v < x.size(); ++v) {
    mean += m.vertex_weight[v] * x(v);
    area += m.vertex_weight[v];
  }
  mean /= area;
  m.p.resize(x.size());
  for (Eigen::Index v = 0; v < x.size(); ++v) m.p[v] = x(v) - mean;
  return m.p;
}

std::vector<double> SurfacePressure::panel_means() const {
  const TriangleMesh& mesh = impl_->surface->mesh;
  std::vector<double> out(mesh.size(), 0.0);
  if (impl_->p.empty()) return out;
  for (std::size_t j = 0; j < mesh.size(); ++j)
    out[j] = (impl_->p[mesh.triangles[j][0]] + impl_->p[mesh.triangles[j][1]] +
              impl_->p[mesh.triangles[j][2]]) /
             3;
  return out;
}

Vec3 SurfacePressure::force() const {
  const std::vector<double> mean = panel_means();
  Vec3 f;
  for (std::size_t j = 0; j < mean.size(); ++j) {
    const Panel& p = impl_->surface->panels[j];
    f += (-mean[j] * p.area) * p.normal;
  }
  return f;
}

std::vector<Vec3> pressure_gradient_from_shedding(const Surface& surface,
                                                  const std::vector<Vec3>& shed_gamma, double dt) {
  if (shed_gamma.size() != surface.size())
    throw std::invalid_argument("pressure gradient: " + std::to_string(shed_gamma.size()) +
                                " sheets for " + std::to_string(surface.size()) + " panels");
  std::vector<Vec3> g(surface.size());
  for (std::size_t j = 0; j < g.size(); ++j)
    g[j] = (1 / dt) * cross(surface.panels[j].normal, shed_gamma[j]);
  return g;
}

}  // namespace vortex::bodies
