// Every encoding of VTK XML arrays reads to the same particles, bit for bit: ascii, inline base64,
// appended raw or base64, uncompressed or zlib-compressed (ParaView's default) in one or several
// blocks, with either size-header type, in PolyData and UnstructuredGrid (.vtu) files.

#include <gtest/gtest.h>

#include <string>

#include "support/reference.hpp"
#include "support/same_particles.hpp"
#include "support/scratch_dir.hpp"
#include "support/vtk_files.hpp"
#include "vortex/vtp.hpp"

namespace vortex {
namespace {

using testing::expect_same_particles;
using testing::VtkEncoding;
using testing::VtkFileOptions;

class VtpEncodings : public testing::ScratchDirTest {
 protected:
  VtpEncodings() : ScratchDirTest("vtp-encodings") {}
};

TEST_F(VtpEncodings, EveryEncodingReadsTheSameParticles) {
  const ParticleSet p = testing::random_cube(37, 8);
  for (VtkEncoding encoding : {VtkEncoding::Ascii, VtkEncoding::Base64, VtkEncoding::AppendedRaw,
                               VtkEncoding::AppendedBase64}) {
    for (bool zlib : {false, true}) {
      if (zlib && encoding == VtkEncoding::Ascii) continue;
      for (bool uint64_header : {false, true}) {
        for (std::size_t block : {std::size_t(40), std::size_t(296), std::size_t(1 << 15)}) {
          SCOPED_TRACE("encoding " + std::to_string(static_cast<int>(encoding)) + ", zlib " +
                       std::to_string(zlib) + ", UInt64 " + std::to_string(uint64_header) +
                       ", block " + std::to_string(block));
          VtkFileOptions o;
          o.encoding = encoding;
          o.zlib = zlib;
          o.uint64_header = uint64_header;
          o.zlib_block = block;
          const std::string file = write_text("p.vtp", testing::vtk_particles_text(p, o));
          expect_same_particles(read_particles_vtp(file), p);
          EXPECT_EQ(read_points_vtp(file).z, p.z);
        }
      }
    }
  }
}

TEST_F(VtpEncodings, UnstructuredGridPointClouds) {
  const ParticleSet p = testing::random_cube(11, 9);
  VtkFileOptions o;
  o.dataset = "UnstructuredGrid";
  o.zlib = true;
  const std::string file = write_text("p.vtu", testing::vtk_particles_text(p, o));
  expect_same_particles(read_particles_vtp(file), p);
}

TEST_F(VtpEncodings, DamagedCompressedBlocksAreErrors) {
  const ParticleSet p = testing::random_cube(20, 10);
  VtkFileOptions o;
  o.zlib = true;
  std::string text = testing::vtk_particles_text(p, o);
  // A byte of the first compressed block (right after the Points header) changed.
  const std::size_t header_words = 3 + (3 * 20 * 8 + 39) / 40;
  const std::size_t first_block = text.find('_', text.find("<AppendedData")) + 1 + 8 * header_words;
  text[first_block + 3] = static_cast<char>(text[first_block + 3] ^ 0x5a);
  const std::string file = write_text("damaged.vtp", text);
  try {
    read_particles_vtp(file);
    ADD_FAILURE() << "no error";
  } catch (const FileError& e) {
    EXPECT_NE(std::string(e.what()).find("array 'Points': compressed block 0 does not decompress"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace vortex
