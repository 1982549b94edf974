// Meshes that cannot bound one body are refused with a message naming the problem: VTP files
// without points or with point indices out of range, duplicated surfaces, non-manifold edges,
// several shells (separate, nested: a hollow body), self-intersecting or overlapping surfaces,
// coordinates outside the supported range; the checks do not depend on the mesh's size or place.
// A binary STL whose header starts with "solid" is read as binary.

#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

#include "support/scratch_dir.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/mesh_io.hpp"
#include "vortex/bodies/surface.hpp"
#include "vortex/file_io.hpp"

namespace vortex::bodies {
namespace {

// The check rejects `mesh` with a message that contains `text`.
void expect_mesh_error(const TriangleMesh& mesh, const std::string& text) {
  try {
    check_closed_surface(mesh, "body.vtp");
    ADD_FAILURE() << "accepted: " << text;
  } catch (const MeshError& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("body.vtp: ", 0), 0u) << e.what();
  }
}

// `add` appended to `mesh`, its vertices moved by `shift` and scaled by `scale`.
void append(TriangleMesh& mesh, TriangleMesh add, double scale, std::array<double, 3> shift,
            bool flip = false) {
  const int base = static_cast<int>(mesh.vertices.size());
  if (flip) flip_orientation(add);
  for (auto v : add.vertices)
    mesh.vertices.push_back(
        {scale * v[0] + shift[0], scale * v[1] + shift[1], scale * v[2] + shift[2]});
  for (auto t : add.triangles) mesh.triangles.push_back({t[0] + base, t[1] + base, t[2] + base});
}

TriangleMesh scaled(TriangleMesh m, double s, std::array<double, 3> shift = {0, 0, 0}) {
  for (auto& v : m.vertices)
    for (int k = 0; k < 3; ++k) v[k] = s * v[k] + shift[k];
  return m;
}

TEST(MeshChecks, DuplicatedSurfaceIsRefused) {
  TriangleMesh twice;
  append(twice, icosphere(3), 1, {0, 0, 0});
  append(twice, icosphere(3), 1, {0, 0, 0});
  expect_mesh_error(twice, "are at the same place");
}

TEST(MeshChecks, NonManifoldEdgeIsNamed) {
  // Two tetrahedra that share the edge (0, 1): four triangles along it.
  TriangleMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, -1, 0}, {0, 0, -1}};
  const auto tet = [&](int a, int b, int c, int d) {
    for (std::array<int, 3> t : {std::array<int, 3>{a, c, b}, {a, b, d}, {a, d, c}, {b, c, d}})
      m.triangles.push_back(t);
  };
  tet(0, 1, 2, 3);
  tet(0, 1, 5, 4);
  expect_mesh_error(m, "non-manifold edge (0, 1): shared by 4 triangles");
}

TEST(MeshChecks, SeveralShellsAreRefused) {
  TriangleMesh hollow;  // a spherical shell: the inner sphere faces into the cavity
  append(hollow, icosphere(3), 1, {0, 0, 0});
  append(hollow, icosphere(3), 0.5, {0, 0, 0}, true);
  expect_mesh_error(hollow, "lies inside the surface of triangle 0 (a hollow body)");
  TriangleMesh nested;  // both facing out
  append(nested, icosphere(3), 0.5, {0.1, 0, 0});
  append(nested, icosphere(3), 1, {0, 0, 0});
  expect_mesh_error(nested, "the surface of triangle 0 lies inside the surface of triangle 180");
  TriangleMesh apart;
  append(apart, icosphere(3), 1, {0, 0, 0});
  append(apart, icosphere(3), 1, {3, 0, 0});
  expect_mesh_error(apart, "2 separate closed surfaces");
  TriangleMesh overlapping;
  append(overlapping, icosphere(3), 1, {0, 0, 0});
  append(overlapping, icosphere(3), 1, {0.7, 0.1, 0.05});
  expect_mesh_error(overlapping, "cross each other");
}

TEST(MeshChecks, SelfIntersectingSurfaceIsRefused) {
  // The north pole pulled through the body and out of the south side: one connected, closed,
  // manifold surface that passes through itself.
  TriangleMesh m = icosphere(4);
  std::size_t top = 0;
  for (std::size_t i = 0; i < m.vertices.size(); ++i)
    if (m.vertices[i][2] > m.vertices[top][2]) top = i;
  m.vertices[top] = {0.01, 0.02, -1.6};
  expect_mesh_error(m, "cross each other");
}

TEST(MeshChecks, DegenerateAndNonFiniteMeshesAreNamed) {
  TriangleMesh degenerate = icosphere(2);
  const auto& t = degenerate.triangles[4];
  for (int k = 0; k < 3; ++k)  // the third corner on the middle of the opposite edge
    degenerate.vertices[t[2]][k] =
        0.5 * (degenerate.vertices[t[0]][k] + degenerate.vertices[t[1]][k]);
  expect_mesh_error(degenerate, "has zero area");
  TriangleMesh nan = icosphere(2);
  nan.vertices[3][1] = std::nan("");
  expect_mesh_error(nan, "vertex 3 has a non-finite coordinate");
}

TEST(MeshChecks, ChecksDoNotDependOnTheMeshSizeOrPlace) {
  for (double s : {1e-55, 1e-30, 1e-12, 1.0, 1e12, 1e30, 1e55}) {
    EXPECT_NO_THROW(check_closed_surface(scaled(icosphere(4), s), "scaled")) << s;
    EXPECT_NO_THROW(check_closed_surface(scaled(icosphere(4), s, {3 * s, -2 * s, s}), "moved"))
        << s;
    EXPECT_NEAR(enclosed_volume(scaled(icosphere(4), s, {3 * s, 0, 0})) /
                    (s * s * s * enclosed_volume(icosphere(4))),
                1, 1e-12)
        << s;
    TriangleMesh inverted = scaled(icosphere(4), s);
    flip_orientation(inverted);
    expect_mesh_error(inverted, "inverted mesh");
    TriangleMesh hollow;
    append(hollow, icosphere(3), s, {0, 0, 0});
    append(hollow, icosphere(3), 0.5 * s, {0, 0, 0}, true);
    expect_mesh_error(hollow, "(a hollow body)");
  }
  expect_mesh_error(scaled(icosphere(4), 1e150), "outside the supported range |x| <= 1e+60");
  expect_mesh_error(scaled(icosphere(4), 1e-100), "is below the supported 1e-60");
  expect_mesh_error(scaled(icosphere(4), 1.0, {1e61, 0, 0}), "outside the supported range");
}

class MeshReaders : public vortex::testing::ScratchDirTest {
 protected:
  MeshReaders() : ScratchDirTest("bodies-mesh-checks") {}

  // A .vtp file of one Piece with these Points and Polys contents.
  std::string vtp(const std::string& name, const std::string& points, const std::string& conn,
                  const std::string& offsets) {
    return write_text(name,
                      "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\">\n"
                      "<PolyData>\n<Piece>\n" +
                          points +
                          "<Polys>\n<DataArray type=\"Int64\" Name=\"connectivity\" "
                          "format=\"ascii\">\n" +
                          conn +
                          "\n</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" "
                          "format=\"ascii\">\n" +
                          offsets +
                          "\n</DataArray>\n</Polys>\n</Piece>\n</PolyData>\n</VTKFile>\n");
  }

  // read_mesh refuses the file with a FileError whose message names it and contains `text`.
  void expect_file_error(const std::string& file, const std::string& text) {
    try {
      read_mesh(file);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const FileError& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    }
  }
};

const char* kTetPoints =
    "<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">\n"
    "0 0 0  1 0 0  0 1 0  0 0 1\n</DataArray>\n</Points>\n";
const char* kTetConn = "0 2 1  0 1 3  0 3 2  1 2 3";
const char* kTetOffsets = "3 6 9 12";

TEST_F(MeshReaders, VtpTetrahedronIsRead) {
  const TriangleMesh m = read_mesh(vtp("tet.vtp", kTetPoints, kTetConn, kTetOffsets));
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m.vertices.size(), 4u);
  EXPECT_NO_THROW(check_closed_surface(m, "tet.vtp"));
}

TEST_F(MeshReaders, VtpWithoutPointsIsRefused) {
  expect_file_error(vtp("empty.vtp", "<Points></Points>\n", kTetConn, kTetOffsets),
                    "<Points>: no DataArray");
  expect_file_error(vtp("closed.vtp", "<Points/>\n", kTetConn, kTetOffsets),
                    "<Points>: no DataArray");
  expect_file_error(vtp("none.vtp", "", kTetConn, kTetOffsets), "no <Points> element");
  expect_file_error(vtp("blank.vtp",
                        "<Points>\n<DataArray type=\"Float64\" NumberOfComponents=\"3\" "
                        "format=\"ascii\">\n</DataArray>\n</Points>\n",
                        kTetConn, kTetOffsets),
                    "<Points>: no points");
}

TEST_F(MeshReaders, VtpPointIndexOutOfRangeIsRefused) {
  // 2^32 + 1 would become 1 in 32 bits.
  expect_file_error(vtp("wide.vtp", kTetPoints, "0 2 4294967297  0 1 3  0 3 2  1 2 3", kTetOffsets),
                    "refers to point 4294967297, out of range (4 points)");
  expect_file_error(vtp("past.vtp", kTetPoints, "0 2 1  0 1 4  0 3 2  1 2 3", kTetOffsets),
                    "cell 1 refers to point 4, out of range");
  expect_file_error(vtp("negative.vtp", kTetPoints, "0 2 1  0 1 3  0 -3 2  1 2 3", kTetOffsets),
                    "cell 2 refers to point -3, out of range");
  expect_file_error(vtp("tail.vtp", kTetPoints, "0 2 1  0 1 3  0 3 2  1 2 3  1 2", kTetOffsets),
                    "the connectivity has 14 values, the offsets end at 12");
}

TEST_F(MeshReaders, DuplicatedSurfaceInAVtpIsRefused) {
  TriangleMesh twice;
  append(twice, icosphere(2), 1, {0, 0, 0});
  append(twice, icosphere(2), 1, {0, 0, 0});
  write_surface_vtp(path("twice.vtp"), twice);
  try {
    make_surface(read_mesh(path("twice.vtp")), path("twice.vtp"));
    ADD_FAILURE() << "accepted";
  } catch (const MeshError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("twice.vtp: vertices "), std::string::npos) << message;
    EXPECT_NE(message.find(" are at the same place (a duplicated surface"), std::string::npos)
        << message;
  }
}

// A binary STL whose 80-byte header starts with "solid" and mentions a facet (as some exporters
// write) is told from an ascii one by its size.
TEST_F(MeshReaders, BinaryStlWithASolidHeaderIsReadAsBinary) {
  const TriangleMesh m = icosphere(3);
  std::string header = "solid exported by a CAD program; facet normals included";
  header.resize(80, ' ');
  std::ofstream binary(path("b.stl"), std::ios::binary);
  binary << header;
  const auto count = static_cast<std::uint32_t>(m.size());
  binary.write(reinterpret_cast<const char*>(&count), 4);
  for (const auto& t : m.triangles) {
    float rec[12] = {0, 0, 0};
    for (int k = 0; k < 3; ++k)
      for (int c = 0; c < 3; ++c) rec[3 + 3 * k + c] = static_cast<float>(m.vertices[t[k]][c]);
    binary.write(reinterpret_cast<const char*>(rec), sizeof rec);
    binary.write("\0\0", 2);
  }
  binary.close();
  const TriangleMesh back = read_mesh(path("b.stl"));
  EXPECT_EQ(back.size(), m.size());
  EXPECT_EQ(back.vertices.size(), m.vertices.size());
  EXPECT_NO_THROW(check_closed_surface(back, "b.stl"));
  expect_file_error(write_text("empty.stl", "solid nothing\nendsolid nothing\n"),
                    "ascii STL: no facets");
}

}  // namespace
}  // namespace vortex::bodies
