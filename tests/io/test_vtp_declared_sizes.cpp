// Sizes declared by a VTK XML file are checked against overflow and against the bytes present
// before anything is allocated or read, and a file of many pieces reads in linear time.

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "support/reference.hpp"
#include "support/scratch_dir.hpp"
#include "support/vtk_files.hpp"
#include "vortex/vtp.hpp"

namespace vortex {
namespace {

class VtpDeclaredSizes : public testing::ScratchDirTest {
 protected:
  VtpDeclaredSizes() : ScratchDirTest("vtp-declared-sizes") {}

  // The message of the FileError that reading `text` as sources and as targets throws (the
  // same for both), or a failure.
  std::string error_of(const std::string& text) {
    const std::string file = write_text("bad.vtp", text);
    std::string messages[2];
    for (int k = 0; k < 2; ++k) {
      try {
        if (k == 0)
          read_particles_vtp(file);
        else
          read_points_vtp(file);
        ADD_FAILURE() << "no error";
      } catch (const FileError& e) {
        messages[k] = e.what();
      }
    }
    return messages[0];
  }
};

// One point array of `n` declared points holding `values`, in ascii.
std::string ascii_points(const std::string& n, const std::string& components,
                         const std::string& values, const std::string& format = "ascii") {
  return "<VTKFile type=\"PolyData\" header_type=\"UInt64\"><PolyData><Piece NumberOfPoints=\"" +
         n + "\"><Points><DataArray type=\"Float64\" NumberOfComponents=\"" + components +
         "\" format=\"" + format + "\">" + values +
         "</DataArray></Points><PointData>"
         "<DataArray type=\"Float64\" Name=\"circulation\" NumberOfComponents=\"3\">1 2 3"
         "</DataArray><DataArray type=\"Float64\" Name=\"radius\">1</DataArray>"
         "</PointData></Piece></PolyData></VTKFile>\n";
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(VtpDeclaredSizes, PointCountTimesComponentsOverflow) {
  // 6148914691236517206 * 3 wraps around to 2 in 64 bits.
  const std::string message = error_of(ascii_points("6148914691236517206", "3", "1 2"));
  EXPECT_TRUE(has(message,
                  "bad.vtp:1: array 'Points': NumberOfPoints 6148914691236517206 times "
                  "3 components of Float64 overflows"))
      << message;
  // The same in binary, where the byte count would wrap too.
  const std::string binary =
      ascii_points("6148914691236517206", "3", testing::base64(std::string(24, '\0')), "binary");
  EXPECT_TRUE(has(error_of(binary), "overflows")) << error_of(binary);
}

TEST_F(VtpDeclaredSizes, CountsBeyondTheBytesPresentFailBeforeAllocating) {
  // Ascii: the values present are counted, nothing of the declared size is reserved.
  EXPECT_TRUE(has(error_of(ascii_points("1000000000000000", "3", "1 2 3")),
                  "holds 3 values, expected 3000000000000000"));
  EXPECT_TRUE(
      has(error_of(ascii_points("1", "1048576", "1 2 3")), "has 1048576 components, expected 3"));
  // Binary: the byte count in the header must be the declared size and fit in the data present.
  const ParticleSet p = testing::random_cube(4, 2);
  for (auto encoding : {testing::VtkEncoding::Base64, testing::VtkEncoding::AppendedRaw,
                        testing::VtkEncoding::AppendedBase64}) {
    testing::VtkFileOptions o;
    o.encoding = encoding;
    std::string text = testing::vtk_particles_text(p, o);
    text.replace(text.find("NumberOfPoints=\"4\""), 18, "NumberOfPoints=\"1000000000000000\"");
    EXPECT_TRUE(has(error_of(text), "holds 96 bytes, expected 24000000000000000"))
        << error_of(text);
    // A header that claims the declared size, with the data missing.
    o.tamper = [](int, int, std::uint64_t) -> std::uint64_t { return 24000000000000000; };
    text = testing::vtk_particles_text(p, o);
    text.replace(text.find("NumberOfPoints=\"4\""), 18, "NumberOfPoints=\"1000000000000000\"");
    EXPECT_TRUE(has(error_of(text), "data runs past the end of the file")) << error_of(text);
    // Compressed: a block count or an uncompressed size the file cannot hold.
    o.zlib = true;
    o.tamper = [](int, int word, std::uint64_t v) -> std::uint64_t {
      return word == 0 ? 0x0fffffffffffffffull : v;
    };
    EXPECT_TRUE(has(error_of(testing::vtk_particles_text(p, o)), "compressed blocks, more than"));
    o.tamper = [](int, int word, std::uint64_t v) -> std::uint64_t {
      return word == 1 ? 1ull << 40 : v;
    };
    text = testing::vtk_particles_text(p, o);
    EXPECT_TRUE(has(error_of(text), "expected 96")) << error_of(text);
  }
}

TEST_F(VtpDeclaredSizes, ComponentCountsAreNotNarrowed) {
  // 4294967299 = 2^32 + 3 would read as 3 in 32 bits.
  EXPECT_TRUE(has(error_of(ascii_points("1", "4294967299", "1 2 3")),
                  "has NumberOfComponents 4294967299 (accepted: 1 to 1048576)"));
  EXPECT_TRUE(has(error_of(ascii_points("1", "1073741824", "1 2 3")),
                  "has NumberOfComponents 1073741824 (accepted: 1 to 1048576)"));
  EXPECT_TRUE(has(error_of(ascii_points("18446744073709551616", "3", "1 2 3")),
                  "NumberOfPoints \"18446744073709551616\" is too large"));
  EXPECT_TRUE(has(error_of(ascii_points("-1", "3", "1 2 3")),
                  "NumberOfPoints \"-1\" is not a non-negative integer"));
}

TEST_F(VtpDeclaredSizes, ManyPiecesReadInLinearTime) {
  // 20,000 one-point pieces: a line number computed for every tag from the start of the file
  // made this quadratic (minutes); it is milliseconds of work.
  const int pieces = 20000;
  std::string text = "<VTKFile type=\"PolyData\">\n<PolyData>\n";
  for (int i = 0; i < pieces; ++i) {
    text +=
        "<Piece NumberOfPoints=\"1\">\n<Points>\n<DataArray type=\"Float64\" "
        "NumberOfComponents=\"3\" format=\"ascii\">" +
        std::to_string(i) +
        " 0 0</DataArray>\n</Points>\n<PointData>\n<DataArray type=\"Float64\" "
        "Name=\"circulation\" NumberOfComponents=\"3\" format=\"ascii\">1 0 0</DataArray>\n"
        "<DataArray type=\"Float64\" Name=\"radius\" format=\"ascii\">0.5</DataArray>\n"
        "</PointData>\n</Piece>\n";
  }
  text += "</PolyData>\n</VTKFile>\n";
  const std::string file = write_text("pieces.vtp", text);
  const auto start = std::chrono::steady_clock::now();
  const ParticleSet p = read_particles_vtp(file);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(p.size(), static_cast<std::size_t>(pieces));
  EXPECT_EQ(p.x[pieces - 1], pieces - 1);
  EXPECT_LT(seconds, 5.0);
}

}  // namespace
}  // namespace vortex
