// Surfaces: icosphere and ellipsoid generators against their implicit equations and exact volumes,
// the quadrature rules against exact monomial integrals, the panel frames, the closed-surface
// checks (open, inverted, inconsistent meshes), and the mesh readers and writer.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "support/scratch_dir.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/mesh_io.hpp"
#include "vortex/bodies/quadrature.hpp"
#include "vortex/bodies/surface.hpp"
#include "vortex/file_io.hpp"

namespace vortex::bodies {
namespace {

// The smallest angle of any triangle, in degrees.
double min_angle(const Surface& s) {
  double m = 180;
  for (const Panel& p : s.panels) {
    const Vec3 v[3] = {p.v0, p.v1, p.v2};
    for (int k = 0; k < 3; ++k) {
      const Vec3 a = normalized(v[(k + 1) % 3] - v[k]), b = normalized(v[(k + 2) % 3] - v[k]);
      m = std::min(m, std::acos(dot(a, b)) * 180 / M_PI);
    }
  }
  return m;
}

TEST(Icosphere, CountsAndClosedness) {
  for (int f : {1, 2, 5, 12}) {
    const TriangleMesh m = icosphere(f);
    EXPECT_EQ(m.size(), static_cast<std::size_t>(20 * f * f));
    EXPECT_EQ(m.vertices.size(), static_cast<std::size_t>(10 * f * f + 2));
    EXPECT_NO_THROW(check_closed_surface(m));
    for (const auto& v : m.vertices) EXPECT_NEAR(std::hypot(v[0], v[1], v[2]), 1.0, 1e-14);
  }
  EXPECT_THROW(icosphere(0), std::invalid_argument);
}

TEST(Icosphere, VolumeAndAreaConvergeToTheSphere) {
  double prev_err = 1;
  for (int f : {4, 8, 16}) {
    const Surface s = make_surface(sphere(f, 2.0));
    const double err = std::abs(s.volume / (4 * M_PI / 3 * 8) - 1);
    EXPECT_LT(err, prev_err / 3.5) << "second order in the panel size, f = " << f;
    EXPECT_NEAR(s.total_area / (16 * M_PI), 1.0, 2 * err);
    prev_err = err;
  }
}

TEST(Ellipsoid, PointsOnTheEllipsoidForBothMaps) {
  const double a = 0.5, c = 0.05;
  for (EllipsoidMap map : {EllipsoidMap::Affine, EllipsoidMap::EqualAngle}) {
    const TriangleMesh m = ellipsoid(8, a, a, c, map);
    for (const auto& v : m.vertices)
      EXPECT_NEAR((v[0] * v[0] + v[1] * v[1]) / (a * a) + v[2] * v[2] / (c * c), 1.0, 1e-12);
    const Surface s = make_surface(m);
    EXPECT_NEAR(s.volume / (4 * M_PI / 3 * a * a * c), 1.0, 0.05);
  }
  EXPECT_THROW(ellipsoid(4, 1, 2, 1, EllipsoidMap::EqualAngle), std::invalid_argument);
  EXPECT_THROW(ellipsoid(4, -1, 1, 1), std::invalid_argument);
  EXPECT_EQ(parse_ellipsoid_map("equal-angle"), EllipsoidMap::EqualAngle);
  EXPECT_THROW(parse_ellipsoid_map("conformal"), std::invalid_argument);
}

TEST(Ellipsoid, EqualAngleMapKeepsTheTrianglesShape) {
  const Surface affine = make_surface(ellipsoid(8, 0.5, 0.5, 0.05, EllipsoidMap::Affine));
  const Surface equal = make_surface(ellipsoid(8, 0.5, 0.5, 0.05, EllipsoidMap::EqualAngle));
  EXPECT_LT(min_angle(affine), 10.0);  // rim slivers
  EXPECT_GT(min_angle(equal), 20.0);
  EXPECT_GT(min_angle(equal), 3 * min_angle(affine));
}

TEST(Quadrature, RulesIntegrateMonomialsOfTheirDegree) {
  // Reference triangle (0,0), (1,0), (0,1): mean of x^i y^j is 2 i! j! / (i + j + 2)!.
  for (int n : {1, 3, 6, 7}) {
    for (const TriangleRule& r : {triangle_rule(n), subdivided(triangle_rule(n))}) {
      for (int i = 0; i <= r.degree; ++i)
        for (int j = 0; i + j <= r.degree; ++j) {
          double sum = 0;
          for (std::size_t q = 0; q < r.size(); ++q)
            sum += r.weight[q] * std::pow(r.bary[q][1], i) * std::pow(r.bary[q][2], j);
          const double exact = 2 * std::tgamma(i + 1) * std::tgamma(j + 1) / std::tgamma(i + j + 3);
          EXPECT_NEAR(sum, exact, 1e-12) << n << " points, x^" << i << " y^" << j;
        }
    }
  }
  EXPECT_THROW(triangle_rule(4), std::invalid_argument);
}

TEST(Surface, PanelFramesAreOrthonormalAndOutward) {
  const Surface s = make_surface(icosphere(6));
  for (const Panel& p : s.panels) {
    EXPECT_GT(dot(p.normal, p.centroid), 0.98 * norm(p.centroid));
    EXPECT_NEAR(dot(p.t1, p.normal), 0, 1e-14);
    EXPECT_NEAR(dot(p.t1, p.t2), 0, 1e-14);
    EXPECT_NEAR(norm(p.t2), 1, 1e-14);
    EXPECT_NEAR(dot(cross(p.t1, p.t2), p.normal), 1, 1e-14);
  }
  const Points q = quadrature_points(s, triangle_rule(3));
  EXPECT_EQ(q.size(), 3 * s.size());
}

// The check rejects `mesh` with a message that contains `text`.
void expect_mesh_error(const TriangleMesh& mesh, const std::string& what, const std::string& text) {
  try {
    check_closed_surface(mesh, what);
    ADD_FAILURE() << "accepted: " << text;
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

TEST(MeshChecks, OpenInvertedAndInconsistentMeshesAreNamed) {
  TriangleMesh open = icosphere(3);
  open.triangles.pop_back();
  expect_mesh_error(open, "open.stl", "open.stl: open mesh");
  TriangleMesh inverted = icosphere(3);
  flip_orientation(inverted);
  expect_mesh_error(inverted, "mesh", "inverted mesh");
  TriangleMesh one_flipped = icosphere(3);
  std::swap(one_flipped.triangles[7][1], one_flipped.triangles[7][2]);
  expect_mesh_error(one_flipped, "mesh", "inconsistent orientation");
  TriangleMesh bad_index = icosphere(2);
  bad_index.triangles[0][0] = 999;
  EXPECT_THROW(check_closed_surface(bad_index), MeshError);
  TriangleMesh degenerate = icosphere(2);
  degenerate.vertices[degenerate.triangles[0][1]] = degenerate.vertices[degenerate.triangles[0][0]];
  EXPECT_THROW(check_closed_surface(degenerate), MeshError);
  EXPECT_THROW(make_surface(TriangleMesh{}), MeshError);
}

class MeshFiles : public vortex::testing::ScratchDirTest {
 protected:
  MeshFiles() : ScratchDirTest("bodies-mesh") {}
};

TEST_F(MeshFiles, VtpRoundTripKeepsTheMesh) {
  const TriangleMesh m = ellipsoid(4, 1.0, 0.7, 0.3);
  CellArray area{"area", 1, {}};
  for (const Panel& p : make_surface(m).panels) area.values.push_back(p.area);
  write_surface_vtp(path("e.vtp"), m, {area});
  const TriangleMesh back = read_mesh(path("e.vtp"));
  ASSERT_EQ(back.size(), m.size());
  ASSERT_EQ(back.vertices.size(), m.vertices.size());
  EXPECT_EQ(back.triangles[17], m.triangles[17]);
  EXPECT_EQ(back.vertices[11], m.vertices[11]);
  EXPECT_THROW(write_surface_vtp(path("bad.vtp"), m, {CellArray{"x", 3, {1.0}}}),
               std::invalid_argument);
  EXPECT_EQ(files().size(), 1u);  // nothing half-written
}

TEST_F(MeshFiles, AsciiAndBinaryStlAreReadAndMerged) {
  const TriangleMesh m = icosphere(3);
  std::ofstream ascii(path("s.stl"));
  ascii.precision(17);
  ascii << "solid s\n";
  std::ofstream binary(path("b.stl"), std::ios::binary);
  binary << std::string(80, ' ');
  const auto count = static_cast<std::uint32_t>(m.size());
  binary.write(reinterpret_cast<const char*>(&count), 4);
  for (const auto& t : m.triangles) {
    ascii << "facet normal 0 0 0\nouter loop\n";
    float rec[12] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      const auto& v = m.vertices[t[k]];
      ascii << "vertex " << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
      for (int c = 0; c < 3; ++c) rec[3 + 3 * k + c] = static_cast<float>(v[c]);
    }
    ascii << "endloop\nendfacet\n";
    binary.write(reinterpret_cast<const char*>(rec), sizeof rec);
    binary.write("\0\0", 2);
  }
  ascii << "endsolid s\n";
  ascii.close();
  binary.close();
  for (const char* name : {"s.stl", "b.stl"}) {
    const TriangleMesh back = read_mesh(path(name));
    EXPECT_EQ(back.size(), m.size()) << name;
    EXPECT_EQ(back.vertices.size(), m.vertices.size()) << name;
    EXPECT_NO_THROW(check_closed_surface(back, name));
  }
  EXPECT_THROW(read_mesh(path("missing.stl")), FileError);
  EXPECT_THROW(read_mesh(path("mesh.obj")), FileError);
  write_text("short.stl", "xyz");
  EXPECT_THROW(read_mesh(path("short.stl")), FileError);
}

}  // namespace
}  // namespace vortex::bodies
