// CSV particle and result files: exact round trips, the input format's freedoms, and every kind of
// bad input named by file, line and column.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "support/message_of.hpp"
#include "support/same_particles.hpp"
#include "support/scratch_dir.hpp"
#include "vortex/csv.hpp"
#include "vortex/generators.hpp"

using namespace vortex;

namespace {

class CsvTest : public vortex::testing::ScratchDirTest {
 protected:
  CsvTest() : ScratchDirTest("csv") {}
  // The message of the FileError that reading `text` as sources throws.
  std::string source_error(const std::string& text) {
    const std::string file = write_text("bad.csv", text);
    SCOPED_TRACE("reading:\n" + text);
    return vortex::testing::message_of<FileError>([&] { read_particles_csv(file); });
  }
};

std::vector<std::string> read_lines(const std::string& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<double> parse_row(const std::string& line) {
  std::vector<double> values;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');)
    values.push_back(std::strtod(cell.c_str(), nullptr));
  return values;
}

// Array `name` of a and of b hold the same values, with the same signs (-0 is not 0).
void expect_same_bits(const char* name, const std::vector<double>& a,
                      const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size()) << name;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(std::signbit(a[i]), std::signbit(b[i])) << name << " " << i;
    EXPECT_EQ(a[i], b[i]) << name << " " << i;
  }
}

}  // namespace

TEST_F(CsvTest, ParticlesRoundTripExactly) {
  ParticleSet p = random_cube(300, 11);
  // Extremes of the double range must survive 17 significant digits as well.
  p.push_back(-0.0, 1e-300, -1.7976931348623157e308, 4.9406564584124654e-324, -2.5e-308, 0.1,
              5e-324);
  p.push_back(1.0 / 3.0, -2.0 / 3.0, 1e15 + 0.3, 123456789.12345678, -1e-17, 0, 1e300);
  const std::string file = path("particles.csv");
  write_particles_csv(file, p);
  EXPECT_EQ(read_lines(file).front(), "x,y,z,Gx,Gy,Gz,sigma");
  const ParticleSet q = read_particles_csv(file);
  vortex::testing::for_each_particle_array(q, p, expect_same_bits);
  const Points targets = read_points_csv(file);
  expect_same_bits("x", targets.x, p.x);
  expect_same_bits("z", targets.z, p.z);
}

TEST_F(CsvTest, ResultColumnsAreExactAndInTargetOrder) {
  const ParticleSet p = random_cube(50, 3);
  VelocityField field;
  field.resize(p.size(), true);
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (int c = 0; c < 3; ++c) field.u[c][i] = 0.1 * c + std::sqrt(static_cast<double>(i));
    for (int c = 0; c < 9; ++c) field.du[c][i] = c - std::cbrt(static_cast<double>(i) + 0.5);
  }
  write_field_csv(path("with_gradient.csv"), p, field);
  const auto lines = read_lines(path("with_gradient.csv"));
  ASSERT_EQ(lines.size(), p.size() + 1);
  EXPECT_EQ(lines[0],
            "x,y,z,ux,uy,uz,dux_dx,dux_dy,dux_dz,duy_dx,duy_dy,duy_dz,duz_dx,duz_dy,duz_dz");
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto row = parse_row(lines[i + 1]);
    ASSERT_EQ(row.size(), 15u);
    EXPECT_EQ(row[0], p.x[i]);
    EXPECT_EQ(row[1], p.y[i]);
    EXPECT_EQ(row[2], p.z[i]);
    for (int c = 0; c < 3; ++c) EXPECT_EQ(row[3 + c], field.u[c][i]);
    for (int c = 0; c < 9; ++c) EXPECT_EQ(row[6 + c], field.du[c][i]);  // row a, column b at 3a+b
  }

  field.resize(p.size(), false);
  write_field_csv(path("velocity.csv"), p, field);
  const auto velocity_lines = read_lines(path("velocity.csv"));
  EXPECT_EQ(velocity_lines[0], "x,y,z,ux,uy,uz");
  EXPECT_EQ(parse_row(velocity_lines[1]).size(), 6u);
  EXPECT_EQ(field_csv_header(false), "x,y,z,ux,uy,uz");
}

TEST_F(CsvTest, ValuesUseSeventeenSignificantDigits) {
  ParticleSet p;
  p.push_back(0.1, 1, 0, 0, 0, 0, 0.5);
  write_particles_csv(path("p.csv"), p);
  EXPECT_EQ(read_lines(path("p.csv"))[1], "0.10000000000000001,1,0,0,0,0,0.5");
}

TEST_F(CsvTest, ColumnsInAnyOrderWithCommentsBlankLinesAndExtraColumns) {
  const std::string file = write_text("free.csv",
                                      "# a comment before the header\n"
                                      "\n"
                                      "id, Sigma ,gz,GY,Gx,z,y,x,note\r\n"
                                      "  # an indented comment\n"
                                      "1,0.5,3,2,1,-3,-2,-1,first\r\n"
                                      "\n"
                                      "2,0.25,+6,5e0,4,1e-3,.5,7,second\n");
  const ParticleSet p = read_particles_csv(file);
  ASSERT_EQ(p.size(), 2u);
  ParticleSet expected;
  expected.push_back(-1, -2, -3, 1, 2, 3, 0.5);
  expected.push_back(7, 0.5, 1e-3, 4, 5, 6, 0.25);
  vortex::testing::expect_same_particles(p, expected);
}

TEST_F(CsvTest, TargetsNeedOnlyCoordinates) {
  const std::string file = write_text("targets.csv", "z,x,y\n3,1,2\n6,4,5\n");
  const Points t = read_points_csv(file);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.x[1], 4);
  EXPECT_EQ(t.y[1], 5);
  EXPECT_EQ(t.z[1], 6);
  EXPECT_THROW(read_particles_csv(file), FileError);
}

TEST_F(CsvTest, BadNumbersNameFileLineAndColumn) {
  const std::string header = "x,y,z,Gx,Gy,Gz,sigma\n";
  const std::string good = "0,0,0,1,1,1,0.1\n";
  const std::string file = path("bad.csv");
  EXPECT_EQ(source_error(header + good + "0,0,0,nan,1,1,0.1\n"),
            file + ":3: column 'Gx': \"nan\" is not finite");
  EXPECT_EQ(source_error(header + "0,0,inf,1,1,1,0.1\n"),
            file + ":2: column 'z': \"inf\" is not finite");
  EXPECT_EQ(source_error(header + "0,-INF,0,1,1,1,0.1\n"),
            file + ":2: column 'y': \"-INF\" is not finite");
  EXPECT_EQ(source_error("# comment\n" + header + good + good + "0,0,0,1,1,1,abc\n"),
            file + ":5: column 'sigma': \"abc\" is not a number");
  EXPECT_EQ(source_error(header + "0,0,0,1,1,1,0\n"),
            file + ":2: column 'sigma': core radius must be positive, got \"0\"");
  EXPECT_EQ(source_error(header + "0,0,0,1,1,1,-0.5\n"),
            file + ":2: column 'sigma': core radius must be positive, got \"-0.5\"");
  EXPECT_EQ(source_error(header + "0,0,0,1,,1,0.1\n"), file + ":2: column 'Gy': empty value");
  EXPECT_EQ(source_error(header + "1e999,0,0,1,1,1,0.1\n"),
            file + ":2: column 'x': \"1e999\" is out of range");
  EXPECT_EQ(source_error(header + "0,0,0,1,1,1,0.1,9\n"),
            file + ":2: expected 7 fields as in the header, found 8");
  EXPECT_EQ(source_error(header + "0 0 0 1 1 1 0.1\n"),
            file + ":2: expected 7 fields as in the header, found 1");
}

TEST_F(CsvTest, MissingOrDuplicateColumns) {
  const std::string file = path("bad.csv");
  EXPECT_EQ(source_error("# particles\nx,y,z,Gx,Gy,Gz\n0,0,0,1,1,1\n"),
            file + ":2: missing column 'sigma' (header: x,y,z,Gx,Gy,Gz)");
  EXPECT_EQ(source_error("x,y,z,Gx,Gy,Gz,sigma,X\n0,0,0,1,1,1,1,2\n"),
            file + ":1: column 'x' appears twice in the header");
}

TEST_F(CsvTest, ByteOrderMarkOfSpreadsheetsIsAccepted) {
  const std::string file =
      write_text("bom.csv", "\xEF\xBB\xBFx,y,z,Gx,Gy,Gz,sigma\n1,2,3,4,5,6,0.5\n");
  const ParticleSet p = read_particles_csv(file);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p.x[0], 1);
  EXPECT_EQ(p.sigma[0], 0.5);
}

TEST_F(CsvTest, SignAfterPlusIsNotANumber) {
  const std::string header = "x,y,z,Gx,Gy,Gz,sigma\n";
  EXPECT_EQ(source_error(header + "+-1,0,0,1,1,1,1\n"),
            path("bad.csv") + ":2: column 'x': \"+-1\" is not a number");
  EXPECT_EQ(source_error(header + "0,++1,0,1,1,1,1\n"),
            path("bad.csv") + ":2: column 'y': \"++1\" is not a number");
  // One plus before a digit or a point stays a number.
  const ParticleSet p = read_particles_csv(write_text("plus.csv", header + "+1,+.5,0,1,1,1,1\n"));
  EXPECT_EQ(p.x[0], 1);
  EXPECT_EQ(p.y[0], 0.5);
}

TEST_F(CsvTest, EchoedTextIsCutAndEscaped) {
  // A garbage header of 1 MB, with control bytes: the message shows its start, escaped.
  const std::string header = "\x01\x1b[31m" + std::string(1 << 20, 'h');
  const std::string message = source_error(header + "\n1,2,3\n");
  EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
  EXPECT_NE(message.find("(header: \\x01\\x1b[31mhhh"), std::string::npos) << message;
  EXPECT_NE(message.find("... (1048582 bytes)"), std::string::npos) << message;
  const std::string value = std::string(100000, '7') + "x";
  const std::string row_message = source_error("x,y,z,Gx,Gy,Gz,sigma\n" + value + ",0,0,1,1,1,1\n");
  EXPECT_LT(row_message.size(), 400u);
  EXPECT_NE(row_message.find(":2: column 'x': \"777"), std::string::npos) << row_message;
}

TEST_F(CsvTest, EmptyFilesAreErrors) {
  const std::string file = path("bad.csv");
  EXPECT_EQ(source_error(""), file + ": empty file: no header line and no data rows");
  EXPECT_EQ(source_error("# only comments\n\n   \n"),
            file + ": empty file: no header line and no data rows");
  EXPECT_EQ(source_error("x,y,z,Gx,Gy,Gz,sigma\n# nothing else\n"),
            file + ": empty file: no data rows after the header");
}

TEST_F(CsvTest, UnreadablePathsAreErrors) {
  const std::string missing = path("missing.csv");
  try {
    read_particles_csv(missing);
    FAIL() << "no error";
  } catch (const FileError& e) {
    EXPECT_EQ(std::string(e.what()), missing + ": cannot open: No such file or directory");
  }
  EXPECT_THROW(read_points_csv(dir_.string()), FileError);
}

TEST_F(CsvTest, FailedWritesLeaveNothingBehind) {
  const ParticleSet p = random_cube(10, 1);
  EXPECT_THROW(write_particles_csv(path("no-such-folder/p.csv"), p), FileError);
  VelocityField wrong_size;
  wrong_size.resize(3, false);
  EXPECT_THROW(write_field_csv(path("field.csv"), p, wrong_size), std::invalid_argument);
  ParticleSet bad = p;
  bad.sigma[4] = -1;
  EXPECT_THROW(write_particles_csv(path("bad.csv"), bad), std::invalid_argument);
  EXPECT_TRUE(files().empty());

  // An abandoned write removes its temporary file and leaves an existing file untouched.
  write_particles_csv(path("p.csv"), p);
  {
    AtomicFile file(path("p.csv"));
    file.write("half");
  }
  EXPECT_EQ(files(), std::vector<std::string>{"p.csv"});
  EXPECT_EQ(read_particles_csv(path("p.csv")).x, p.x);
}
