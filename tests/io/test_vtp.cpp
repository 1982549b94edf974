// VTK XML PolyData files and .pvd collections without VTK: exact round trips, the layout ParaView
// expects, the other encodings the reader accepts, and bad input.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/message_of.hpp"
#include "support/same_particles.hpp"
#include "support/scratch_dir.hpp"
#include "support/vtk_files.hpp"
#include "vortex/generators.hpp"
#include "vortex/pvd.hpp"
#include "vortex/vtp.hpp"

using namespace vortex;

namespace {

class VtpTest : public vortex::testing::ScratchDirTest {
 protected:
  VtpTest() : ScratchDirTest("vtp") {}
};

// The message of the FileError that `read` throws.
template <class Read>
std::string error_of(Read&& read) {
  return vortex::testing::message_of<FileError>(read);
}

std::string slurp(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

using vortex::testing::base64;

template <class T>
std::string raw_bytes(const std::vector<T>& values) {
  std::string bytes(values.size() * sizeof(T), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <class H>
std::string with_header(const std::string& data) {
  const H size = static_cast<H>(data.size());
  return raw_bytes(std::vector<H>{size}) + data;
}

ParticleSet three_particles() {
  ParticleSet p;
  p.push_back(0, 0, 0, 1, 2, 3, 0.5);
  p.push_back(1, 0, 0, 4, 5, 6, 0.25);
  p.push_back(0, 1, 0, 7, 8, 9, 0.125);
  return p;
}

VelocityField numbered_field(std::size_t n, bool gradient) {
  VelocityField field;
  field.resize(n, gradient);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) field.u[c][i] = std::sin(1.0 + i + 0.1 * c);
    if (gradient) {
      for (int c = 0; c < 9; ++c) field.du[c][i] = std::cos(2.0 * i + c) / 3;
    }
  }
  return field;
}

std::string ascii_file(const std::string& points, const std::string& circulation,
                       const std::string& radius, int n = 2) {
  return "<?xml version=\"1.0\"?>\n"
         "<!-- written by hand -->\n"
         "<VTKFile type='PolyData' version='0.1' byte_order='LittleEndian'>\n"
         "  <PolyData>\n"
         "    <Piece NumberOfPoints=\"" +
         std::to_string(n) +
         "\" NumberOfVerts=\"0\">\n"
         "      <Points>\n"
         "        <DataArray type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\">\n" +
         points +
         "\n        </DataArray>\n"
         "      </Points>\n"
         "      <PointData>\n"
         "        <DataArray type=\"Float64\" Name=\"circulation\" NumberOfComponents=\"3\" "
         "format=\"ascii\">" +
         circulation +
         "</DataArray>\n"
         "        <DataArray type=\"Int32\" Name=\"radius\" format=\"ascii\">\n" +
         radius +
         "\n        </DataArray>\n"
         "      </PointData>\n"
         "    </Piece>\n"
         "  </PolyData>\n"
         "</VTKFile>\n";
}

}  // namespace

TEST_F(VtpTest, ParticlesAndFieldRoundTripBitForBit) {
  const ParticleSet p = random_cube(257, 5);
  const VelocityField field = numbered_field(p.size(), true);
  write_vtp(path("p.vtp"), p, &field);

  vortex::testing::expect_same_particles(read_particles_vtp(path("p.vtp")), p);

  const VelocityField back = read_field_vtp(path("p.vtp"));
  ASSERT_TRUE(back.has_gradient);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(back.u[c], field.u[c]);
  for (int c = 0; c < 9; ++c) EXPECT_EQ(back.du[c], field.du[c]);

  const VtpData data = read_vtp(path("p.vtp"));
  const VtpPointArray* vorticity = data.find("vorticity");
  ASSERT_NE(vorticity, nullptr);
  ASSERT_EQ(vorticity->components, 3);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto w = field.vorticity(i);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(vorticity->values[3 * i + c], w[c]);
  }
  ASSERT_NE(data.find("velocity_gradient"), nullptr);
  EXPECT_EQ(data.find("velocity_gradient")->components, 9);
  // Row-major: component 3a+b is du_a/dx_b.
  EXPECT_EQ(data.find("velocity_gradient")->values[9 * 7 + 5], field.du[5][7]);
}

TEST_F(VtpTest, FieldArraysOnlyWhenGiven) {
  const ParticleSet p = three_particles();
  write_vtp(path("particles.vtp"), p);
  VtpData data = read_vtp(path("particles.vtp"));
  ASSERT_EQ(data.arrays.size(), 2u);
  EXPECT_EQ(data.arrays[0].name, "circulation");
  EXPECT_EQ(data.arrays[1].name, "radius");

  const VelocityField velocity = numbered_field(3, false);
  write_vtp(path("points.vtp"), PointsView(p), &velocity);
  data = read_vtp(path("points.vtp"));
  ASSERT_EQ(data.arrays.size(), 1u);
  EXPECT_EQ(data.arrays[0].name, "velocity");
  EXPECT_EQ(data.points.x, p.x);
  EXPECT_FALSE(read_field_vtp(path("points.vtp")).has_gradient);
  EXPECT_EQ(read_points_vtp(path("points.vtp")).z, p.z);
  EXPECT_NE(error_of([&] {
              read_particles_vtp(path("points.vtp"));
            }).find("missing point array 'circulation'"),
            std::string::npos);
}

TEST_F(VtpTest, LayoutIsWhatParaViewReads) {
  write_vtp(path("p.vtp"), three_particles());
  const std::string text = slurp(path("p.vtp"));
  EXPECT_EQ(text.rfind("<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" "
                       "byte_order=\"LittleEndian\" header_type=\"UInt64\">",
                       0),
            0u);
  EXPECT_NE(text.find("<Piece NumberOfPoints=\"3\" NumberOfVerts=\"3\""), std::string::npos);
  EXPECT_NE(text.find("<AppendedData encoding=\"raw\">"), std::string::npos);
  EXPECT_NE(text.find("Name=\"connectivity\""), std::string::npos);
  EXPECT_NE(text.find("Name=\"offsets\""), std::string::npos);
  // The first appended block is the circulation: a UInt64 byte count, then Float64 tuples.
  const std::size_t data = text.find('_', text.find("<AppendedData")) + 1;
  std::uint64_t bytes;
  std::memcpy(&bytes, text.data() + data, 8);
  EXPECT_EQ(bytes, 9 * sizeof(double));
  double first[3];
  std::memcpy(first, text.data() + data + 8, sizeof first);
  EXPECT_EQ(first[0], 1);
  EXPECT_EQ(first[1], 2);
  EXPECT_EQ(first[2], 3);
}

TEST_F(VtpTest, ReadsAsciiFilesOfOtherTypes) {
  const std::string file =
      write_text("ascii.vtp", ascii_file("0 0 0\n 1.5 2 3", "1 2 3 4 5 6", "1 2"));
  const ParticleSet p = read_particles_vtp(file);
  ASSERT_EQ(p.size(), 2u);
  ParticleSet expected;
  expected.push_back(0, 0, 0, 1, 2, 3, 1);
  expected.push_back(1.5, 2, 3, 4, 5, 6, 2);
  vortex::testing::expect_same_particles(p, expected);
}

TEST_F(VtpTest, ReadsInlineBase64WithEitherHeaderEncoding) {
  const std::vector<float> points{0, 0, 0, 1, 2, 3};
  const std::vector<double> radius{0.5, 0.25};
  const std::vector<std::int64_t> circulation{1, 2, 3, 4, 5, 6};
  // VTK encodes the byte count and the data as separate base64 runs; other writers encode them
  // together. Both must read.
  const std::string separate_points =
      base64(raw_bytes(std::vector<std::uint32_t>{24})) + base64(raw_bytes(points));
  const std::string joint_radius = base64(with_header<std::uint32_t>(raw_bytes(radius)));
  const std::string joint_circulation = base64(with_header<std::uint32_t>(raw_bytes(circulation)));
  const std::string text =
      "<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "<PolyData><Piece NumberOfPoints=\"2\">\n"
      "<Points><DataArray type=\"Float32\" NumberOfComponents=\"3\" format=\"binary\">\n  " +
      separate_points +
      "\n</DataArray></Points>\n"
      "<PointData>\n"
      "<DataArray type=\"Int64\" Name=\"circulation\" NumberOfComponents=\"3\" "
      "format=\"binary\">" +
      joint_circulation +
      "</DataArray>\n"
      "<DataArray type=\"Float64\" Name=\"radius\" format=\"binary\">" +
      joint_radius +
      "</DataArray>\n"
      "</PointData></Piece></PolyData></VTKFile>\n";
  const ParticleSet p = read_particles_vtp(write_text("inline.vtp", text));
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p.y[1], 2);
  EXPECT_EQ(p.gy[1], 5);
  EXPECT_EQ(p.sigma[1], 0.25);
}

TEST_F(VtpTest, ReadsAppendedBase64AndSeveralPieces) {
  const std::vector<double> xyz0{0, 0, 0}, xyz1{1, 1, 1, 2, 2, 2};
  const std::vector<double> speed0{7}, speed1{8, 9};
  std::string appended;
  std::vector<std::size_t> offsets;
  for (const auto* block : {&xyz0, &speed0, &xyz1, &speed1}) {
    offsets.push_back(appended.size());
    appended += base64(with_header<std::uint64_t>(raw_bytes(*block)));
  }
  auto piece = [&](int n, std::size_t points, std::size_t speed) {
    return "<Piece NumberOfPoints=\"" + std::to_string(n) +
           "\"><Points><DataArray type=\"Float64\" NumberOfComponents=\"3\" "
           "format=\"appended\" offset=\"" +
           std::to_string(offsets[points]) +
           "\"/></Points><PointData><DataArray type=\"Float64\" Name=\"speed\" "
           "format=\"appended\" offset=\"" +
           std::to_string(offsets[speed]) + "\"/></PointData></Piece>\n";
  };
  const std::string text =
      "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\"><PolyData>\n" +
      piece(1, 0, 1) + piece(2, 2, 3) + "</PolyData>\n<AppendedData encoding=\"base64\">\n  _" +
      appended + "\n</AppendedData></VTKFile>\n";
  const VtpData data = read_vtp(write_text("appended.vtp", text));
  ASSERT_EQ(data.points.size(), 3u);
  EXPECT_EQ(data.points.x[2], 2);
  ASSERT_NE(data.find("speed"), nullptr);
  EXPECT_EQ(data.find("speed")->values, (std::vector<double>{7, 8, 9}));
}

TEST_F(VtpTest, BadValuesNameFileLineAndArray) {
  const std::string file = path("bad.vtp");
  auto particles_error = [&](const std::string& text) {
    write_text("bad.vtp", text);
    return error_of([&] { read_particles_vtp(file); });
  };
  // Each file's points, circulation, radius and count, and its error after the file's name.
  const struct {
    const char *points, *circulation, *radius;
    int n;
    const char* error;
  } cases[] = {
      {"0 0 0 1 1 1", "1 2 3 4 5 6", "1 0", 2,
       ":13: array 'radius', point 1: core radius must be positive, got 0"},
      {"0 0 0 1 1 1", "1 2 3 4 5 6", "-3 1", 2,
       ":13: array 'radius', point 0: core radius must be positive, got -3"},
      {"0 0 0 1 1 1", "1 2 3 4 nan 6", "1 1", 2,
       ":12: array 'circulation', point 1: value nan is not finite"},
      {"0 0 0 1 inf 1", "1 2 3 4 5 6", "1 1", 2, ":7: point 1: coordinate y is not finite (inf)"},
      {"0 0 0\n1 x 1", "1 2 3 4 5 6", "1 1", 2, ":9: array 'Points': \"x\" is not a number"},
      {"0 0 0 1 1", "1 2 3 4 5 6", "1 1", 2,
       ":7: array 'Points': holds 5 values, expected 6 (from NumberOfPoints)"},
      {"", "", "", 0, ": empty file: no points"},
  };
  for (const auto& c : cases)
    EXPECT_EQ(particles_error(ascii_file(c.points, c.circulation, c.radius, c.n)), file + c.error);
  std::string renamed = ascii_file("0 0 0 1 1 1", "1 2 3 4 5 6", "1 1");
  renamed.replace(renamed.find("Name=\"radius\""), 13, "Name=\"sigma\"");
  EXPECT_EQ(particles_error(renamed), file + ": missing point array 'radius'");
}

TEST_F(VtpTest, MalformedFilesAreErrors) {
  const std::string file = path("bad.vtp");
  auto read_error = [&](const std::string& text) {
    write_text("bad.vtp", text);
    return error_of([&] { read_vtp(file); });
  };
  EXPECT_EQ(read_error(""), file + ": not a VTK XML file (no <VTKFile> element)");
  EXPECT_EQ(read_error("x,y,z\n1,2,3\n"), file + ": not a VTK XML file (no <VTKFile> element)");
  EXPECT_EQ(read_error("<VTKFile type=\"ImageData\"></VTKFile>"),
            file + ":1: not a PolyData or UnstructuredGrid file (VTKFile type=\"ImageData\")");
  EXPECT_NE(read_error("<VTKFile type=\"PolyData\" compressor=\"vtkLZ4DataCompressor\">")
                .find("compressed files (vtkLZ4DataCompressor) are not supported"),
            std::string::npos);
  EXPECT_EQ(read_error("<VTKFile type=\"PolyData\">\n<PolyData>\n<Piece NumberOfPoints=\"2\""),
            file + ":3: unterminated XML tag <Piece");

  // A file cut short inside its binary data.
  write_vtp(path("whole.vtp"), three_particles());
  const std::string whole = slurp(path("whole.vtp"));
  EXPECT_NE(read_error(whole.substr(0, whole.size() - 100)).find("past the end of the file"),
            std::string::npos);

  EXPECT_NE(error_of([&] { read_vtp(path("missing.vtp")); }).find("missing.vtp: cannot open"),
            std::string::npos);
  EXPECT_NE(error_of([&] { read_vtp(dir_.string()); }).find("is a directory"), std::string::npos);
}

TEST_F(VtpTest, FailedWritesLeaveNothingBehind) {
  const ParticleSet p = three_particles();
  const VelocityField wrong = numbered_field(2, true);
  EXPECT_THROW(write_vtp(path("p.vtp"), p, &wrong), std::invalid_argument);
  EXPECT_THROW(write_vtp(path("missing/p.vtp"), p), FileError);
  ParticleSet bad = p;
  bad.sigma[1] = 0;
  EXPECT_THROW(write_vtp(path("bad.vtp"), bad), std::invalid_argument);
  EXPECT_TRUE(files().empty());
}

TEST_F(VtpTest, CollectionIsRewrittenAtEveryStep) {
  std::filesystem::create_directories(dir_ / "steps");
  PvdWriter series(path("series.pvd"));
  const ParticleSet p = three_particles();
  for (int step = 0; step < 3; ++step) {
    const std::string file = path("steps/ring-" + std::to_string(step) + ".vtp");
    write_vtp(file, p);
    series.add(0.1 * step, file);
    const auto entries = read_pvd(path("series.pvd"));
    ASSERT_EQ(entries.size(), static_cast<std::size_t>(step + 1));
    EXPECT_EQ(entries.back().time, 0.1 * step);
    EXPECT_EQ(entries.back().file, "steps/ring-" + std::to_string(step) + ".vtp");
  }
  // Relative paths resolve from the collection's folder.
  for (const auto& entry : read_pvd(path("series.pvd"))) {
    EXPECT_EQ(read_particles_vtp((dir_ / entry.file).string()).sigma, p.sigma);
  }
  const std::string text = slurp(path("series.pvd"));
  EXPECT_NE(text.find("<VTKFile type=\"Collection\""), std::string::npos);
  EXPECT_NE(text.find("<DataSet timestep=\"0.10000000000000001\" group=\"\" part=\"0\" "
                      "file=\"steps/ring-1.vtp\"/>"),
            std::string::npos);
  EXPECT_EQ(files().size(), 2u);  // series.pvd and steps/, no temporary files
}

TEST_F(VtpTest, CollectionErrors) {
  EXPECT_NE(error_of([&] { read_pvd(path("none.pvd")); }).find("cannot open"), std::string::npos);
  const std::string file = write_text("grid.pvd", "<VTKFile type=\"PolyData\"></VTKFile>");
  EXPECT_EQ(error_of([&] { read_pvd(file); }),
            file + ":1: not a collection file (VTKFile type=\"PolyData\")");
  EXPECT_THROW(PvdWriter(path("missing/s.pvd")).add(0, path("a.vtp")), FileError);
}
