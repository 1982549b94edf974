// Body checkpoints: a round trip is bit-identical; a restart is refused, naming the field and both
// values, when the case's identity differs; damaged files are refused by their checksum; invalid
// values (NaN time, negative step, non-finite impulse or data, counts the file cannot hold) and
// files of the oldest format are refused with a message that says so; version 2 (without the
// outflow's part) is read.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "support/scratch_dir.hpp"
#include "vortex/bodies/checkpoint.hpp"
#include "vortex/file_io.hpp"

namespace vortex::bodies {
namespace {

class Checkpoint : public vortex::testing::ScratchDirTest {
 protected:
  Checkpoint() : ScratchDirTest("bodies-checkpoint-format") {}

  static BodyCheckpoint sample() {
    BodyCheckpoint c;
    c.step = 17;
    c.time = 0.34;
    c.panels = 2;
    c.identity = {{"body", "sphere"}, {"radius", "0.5"}, {"mesh", "0123456789abcdef"},
                  {"re", "100"},      {"dt", "0.02"},    {"stream", "1,0,0"}};
    c.particles.push_back(1, 2, 3, 0.1, 0.2, 0.3, 0.05);
    c.particles.push_back(-1, 0.5, 3, 0.4, 0.2, -0.3, 0.05);
    c.particles.push_back(0.1 / 3, -1e-300, 7e200, -0.0, 1.0 / 3, 2.0 / 7, 0.07);
    c.gamma = {1, 2, 3, 4.0 / 3};
    c.impulse = {0.1, 0.2, 0.3};
    c.impulse_t0 = {-0.7, 0, 0};
    c.outflow_impulse = {0.25, -1e-17, 1.0 / 3};
    c.outflow_vorticity = {-0.0, 2e-9, -0.125};
    return c;
  }

  // The message of the FileError that reading `name` throws ("" when it reads).
  std::string read_error(const std::string& name) {
    try {
      read_checkpoint(path(name));
    } catch (const FileError& e) {
      return e.what();
    }
    return "";
  }

  std::string write_and_read_error(const BodyCheckpoint& c) {
    write_checkpoint(path("c.bin"), c);
    return read_error("c.bin");
  }
};

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

TEST_F(Checkpoint, RoundTripIsBitIdentical) {
  const BodyCheckpoint c = sample();
  write_checkpoint(path("c.bin"), c);
  const BodyCheckpoint r = read_checkpoint(path("c.bin"));
  EXPECT_EQ(r.step, c.step);
  EXPECT_EQ(std::memcmp(&r.time, &c.time, sizeof c.time), 0);
  EXPECT_EQ(r.panels, c.panels);
  EXPECT_EQ(r.identity, c.identity);
  const ParticleSet &p = r.particles, &q = c.particles;
  EXPECT_TRUE(same_bits(p.x, q.x) && same_bits(p.y, q.y) && same_bits(p.z, q.z));
  EXPECT_TRUE(same_bits(p.gx, q.gx) && same_bits(p.gy, q.gy) && same_bits(p.gz, q.gz));
  EXPECT_TRUE(same_bits(p.sigma, q.sigma));
  EXPECT_TRUE(same_bits(r.gamma, c.gamma));
  EXPECT_EQ(std::memcmp(r.impulse.data(), c.impulse.data(), sizeof c.impulse), 0);
  EXPECT_EQ(std::memcmp(r.impulse_t0.data(), c.impulse_t0.data(), sizeof c.impulse_t0), 0);
  EXPECT_EQ(
      std::memcmp(r.outflow_impulse.data(), c.outflow_impulse.data(), sizeof c.outflow_impulse), 0);
  EXPECT_EQ(std::memcmp(r.outflow_vorticity.data(), c.outflow_vorticity.data(),
                        sizeof c.outflow_vorticity),
            0);
  // Written again, the same bytes.
  write_checkpoint(path("again.bin"), r);
  EXPECT_EQ(read_file(path("again.bin")), read_file(path("c.bin")));
  EXPECT_NO_THROW(check_identity(path("c.bin"), r, c.identity));
}

TEST_F(Checkpoint, EachIdentityMismatchIsRefusedByName) {
  const BodyCheckpoint c = sample();
  write_checkpoint(path("c.bin"), c);
  const BodyCheckpoint r = read_checkpoint(path("c.bin"));
  for (std::size_t k = 0; k < c.identity.size(); ++k) {
    CheckpointIdentity run = c.identity;
    run[k].value = "other";
    try {
      check_identity(path("c.bin"), r, run);
      ADD_FAILURE() << "a checkpoint of another " << run[k].name << " was accepted";
    } catch (const FileError& e) {
      const std::string expected = "c.bin: checkpoint was written with " + c.identity[k].name +
                                   " = " + c.identity[k].value + ", this run has " +
                                   c.identity[k].name + " = other";
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
  CheckpointIdentity more = c.identity;
  more.push_back({"stretching", "classical"});
  EXPECT_THROW(
      {
        try {
          check_identity(path("c.bin"), r, more);
        } catch (const FileError& e) {
          EXPECT_NE(std::string(e.what()).find("checkpoint has no stretching"), std::string::npos)
              << e.what();
          throw;
        }
      },
      FileError);
  CheckpointIdentity fewer(c.identity.begin(), c.identity.end() - 1);
  EXPECT_THROW(
      {
        try {
          check_identity(path("c.bin"), r, fewer);
        } catch (const FileError& e) {
          EXPECT_NE(std::string(e.what()).find("written with stream = 1,0,0, this run has no "
                                               "stream"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      FileError);
}

TEST_F(Checkpoint, IdentityValuesAreExactText) {
  EXPECT_EQ(exact_text(100), "100");
  EXPECT_EQ(exact_text(0.02), "0.02");
  EXPECT_EQ(exact_text(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(std::strtod(exact_text(1.0 / 3).c_str(), nullptr), 1.0 / 3);
  TriangleMesh m{{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, {{0, 1, 2}}};
  const std::string d = mesh_digest(m);
  EXPECT_EQ(d.size(), 16u);
  m.vertices[1][0] = std::nextafter(1.0, 2.0);
  EXPECT_NE(mesh_digest(m), d);
}

TEST_F(Checkpoint, FlippedByteIsRefusedByChecksum) {
  write_checkpoint(path("c.bin"), sample());
  const std::string data = read_file(path("c.bin"));
  // Every byte after the header, one at a time: the particles, the sheet, the impulses, the
  // identity and the checksum itself.
  for (std::size_t i = 16; i < data.size(); ++i) {
    std::string bad = data;
    bad[i] = static_cast<char>(bad[i] ^ 0x10);
    write_text("bad.bin", bad);
    const std::string e = read_error("bad.bin");
    EXPECT_NE(e.find("checksum mismatch"), std::string::npos) << "byte " << i << ": " << e;
  }
}

TEST_F(Checkpoint, InvalidValuesAreRefused) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  BodyCheckpoint c = sample();
  c.time = nan;
  EXPECT_NE(write_and_read_error(c).find("has time nan, not a finite time >= 0"),
            std::string::npos);
  c = sample();
  c.time = -0.5;
  EXPECT_NE(write_and_read_error(c).find("has time -0.5"), std::string::npos);
  c = sample();
  c.step = -3;
  EXPECT_NE(write_and_read_error(c).find("has a negative step -3"), std::string::npos);
  c = sample();
  c.impulse[1] = nan;
  EXPECT_NE(write_and_read_error(c).find("non-finite impulse (0.1, nan, 0.3)"), std::string::npos);
  c = sample();
  c.impulse_t0[0] = std::numeric_limits<double>::infinity();
  EXPECT_NE(write_and_read_error(c).find("non-finite impulse at t = 0+"), std::string::npos);
  c = sample();
  c.gamma[3] = nan;
  EXPECT_NE(write_and_read_error(c).find("sheet value 3 is nan"), std::string::npos);
  c = sample();
  c.particles.gz[1] = nan;
  EXPECT_NE(write_and_read_error(c).find("particles:"), std::string::npos);
  c = sample();
  c.gamma.pop_back();
  EXPECT_NE(write_and_read_error(c).find("sheet size does not match"), std::string::npos);
  c = sample();
  c.outflow_vorticity[2] = -nan;
  EXPECT_NE(write_and_read_error(c).find("non-finite impulse or vorticity of the outflow"),
            std::string::npos);
}

// Version 2 is version 3 without the outflow's 48 bytes before the checksum: it reads, with
// nothing left through the outflow.
TEST_F(Checkpoint, Version2ReadsWithNoOutflow) {
  const BodyCheckpoint c = sample();
  write_checkpoint(path("c.bin"), c);
  std::string data = read_file(path("c.bin"));
  data.erase(data.size() - 8 - 48, 48);
  data[15 - 1] = '2';  // "vortex-body-ck3" -> "vortex-body-ck2"
  ASSERT_EQ(data.compare(0, 15, "vortex-body-ck2"), 0);
  const std::uint64_t sum = fnv1a(data.data(), data.size() - 8);
  std::memcpy(&data[data.size() - 8], &sum, sizeof sum);
  write_text("v2.bin", data);
  const BodyCheckpoint r = read_checkpoint(path("v2.bin"));
  EXPECT_EQ(r.step, c.step);
  EXPECT_TRUE(same_bits(r.gamma, c.gamma));
  EXPECT_EQ(std::memcmp(r.impulse.data(), c.impulse.data(), sizeof c.impulse), 0);
  EXPECT_EQ(r.outflow_impulse, (std::array<double, 3>{0, 0, 0}));
  EXPECT_EQ(r.outflow_vorticity, (std::array<double, 3>{0, 0, 0}));
  // A version 2 file with a version 3 body is refused (trailing data).
  std::string longer = read_file(path("c.bin"));
  longer[14] = '2';
  const std::uint64_t sum2 = fnv1a(longer.data(), longer.size() - 8);
  std::memcpy(&longer[longer.size() - 8], &sum2, sizeof sum2);
  write_text("long.bin", longer);
  EXPECT_NE(read_error("long.bin").find("trailing data"), std::string::npos)
      << read_error("long.bin");
}

TEST_F(Checkpoint, CountsBeyondTheFileSizeAreRefused) {
  BodyCheckpoint c = sample();
  c.identity.clear();
  write_checkpoint(path("c.bin"), c);
  std::string data = read_file(path("c.bin"));
  // The particle count after the header, the (empty) identity, the step, time and panels; the
  // checksum recomputed so that only the count is wrong.
  const std::uint64_t n = 1000000000000000ull;
  std::memcpy(&data[16 + 8 + 8 + 8 + 8], &n, sizeof n);
  const std::uint64_t sum = fnv1a(data.data(), data.size() - 8);
  std::memcpy(&data[data.size() - 8], &sum, sizeof sum);
  write_text("count.bin", data);
  EXPECT_NE(read_error("count.bin").find("claims 1000000000000000 particles, more than its"),
            std::string::npos)
      << read_error("count.bin");
}

TEST_F(Checkpoint, OlderFormatIsRefusedByVersion) {
  // Version 1: the same header but for its number, no identity and no checksum.
  std::string v1("vortex-body-ck1\0", 16);
  v1.append(64, '\0');
  write_text("v1.bin", v1);
  const std::string e = read_error("v1.bin");
  EXPECT_NE(e.find("v1.bin: checkpoint is format version 1; this build reads versions 2 and 3"),
            std::string::npos)
      << e;
  write_text("text.bin", "not a checkpoint at all, just text");
  EXPECT_NE(read_error("text.bin").find("wrong header"), std::string::npos);
  write_checkpoint(path("c.bin"), sample());
  const std::string data = read_file(path("c.bin"));
  write_text("short.bin", data.substr(0, data.size() - 5));
  EXPECT_NE(read_error("short.bin").find("checksum mismatch"), std::string::npos);
}

}  // namespace
}  // namespace vortex::bodies
