// A seeded corpus of malformed particle files: every truncation of small CSV and VTK XML files in
// every encoding (ascii, inline base64, appended raw or base64, zlib-compressed), every field and
// attribute replaced by hostile values, and every size word of the binary headers set near
// overflow. Reading each must either throw a FileError with a short message or give exactly the
// particles of the intact file; a crash, another exception or other particles fail.

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "support/scratch_dir.hpp"
#include "support/vtk_files.hpp"
#include "vortex/csv.hpp"
#include "vortex/vtp.hpp"

namespace vortex {
namespace {

using testing::VtkEncoding;
using testing::VtkFileOptions;

ParticleSet intact_particles() {
  ParticleSet p;
  p.push_back(0.25, -1.5, 3, 1, 2, 3, 0.5);
  p.push_back(1e-3, 2.75, -0.125, -4, 5e-2, 6, 0.25);
  p.push_back(7, 8, 9, 0.5, -0.5, 1e3, 0.125);
  return p;
}

bool same(const ParticleSet& a, const ParticleSet& b) {
  return a.x == b.x && a.y == b.y && a.z == b.z && a.gx == b.gx && a.gy == b.gy && a.gz == b.gz &&
         a.sigma == b.sigma;
}

class MalformedFiles : public testing::ScratchDirTest {
 protected:
  MalformedFiles() : ScratchDirTest("malformed") {}
  ~MalformedFiles() override {
    if (memory_file_ >= 0) close(memory_file_);
  }

  // The case as a file. Tens of thousands of them are written: an in-memory file (read through
  // /proc/self/fd) keeps that to seconds where creating files on disk takes a minute.
  std::string case_file(const std::string& text, const std::string& extension) {
    if (memory_file_ < 0) memory_file_ = memfd_create("vortex-malformed-case", 0);
    if (memory_file_ < 0 || ftruncate(memory_file_, 0) != 0 ||
        pwrite(memory_file_, text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
      return write_text("case" + extension, text);
    return "/proc/self/fd/" + std::to_string(memory_file_);
  }

  // Reads `text` as sources and as targets. `accept(particles)` judges a file that reads.
  template <class Accept>
  void check(const std::string& text, const std::string& extension, const std::string& what,
             Accept&& accept) {
    const std::string file = case_file(text, extension);
    const bool csv = extension == ".csv";
    ++cases_;
    try {
      const ParticleSet p = csv ? read_particles_csv(file) : read_particles_vtp(file);
      EXPECT_TRUE(accept(p)) << what << ": read, but not as the intact file";
    } catch (const FileError& e) {
      expect_clean(e, what);
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": not a FileError: " << e.what();
    }
    try {
      const Points t = csv ? read_points_csv(file) : read_points_vtp(file);
      ParticleSet as_particles = intact_;
      as_particles.x = t.x;
      as_particles.y = t.y;
      as_particles.z = t.z;
      EXPECT_TRUE(t.size() == intact_.size() ? accept(as_particles) || csv : csv)
          << what << ": targets read, but not as the intact file";
    } catch (const FileError& e) {
      expect_clean(e, what);
    } catch (const std::exception& e) {
      ADD_FAILURE() << what << ": targets: not a FileError: " << e.what();
    }
  }
  void check_identical(const std::string& text, const std::string& extension,
                       const std::string& what) {
    check(text, extension, what, [&](const ParticleSet& p) { return same(p, intact_); });
  }

  static void expect_clean(const FileError& e, const std::string& what) {
    const std::string message = e.what();
    EXPECT_FALSE(message.empty()) << what;
    EXPECT_LT(message.size(), 600u) << what << ": " << message.substr(0, 600);
  }

  const ParticleSet intact_ = intact_particles();
  std::mt19937_64 rng_{20240611};
  int cases_ = 0;
  int memory_file_ = -1;
};

std::string csv_text(const ParticleSet& p) {
  std::string text = "# particles\nx,y,z,Gx,Gy,Gz,sigma\n";
  char buffer[64];
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (double v : {p.x[i], p.y[i], p.z[i], p.gx[i], p.gy[i], p.gz[i], p.sigma[i]}) {
      std::snprintf(buffer, sizeof buffer, "%.17g,", v);
      text += buffer;
    }
    text.back() = '\n';
  }
  return text;
}

std::vector<VtkFileOptions> every_encoding() {
  std::vector<VtkFileOptions> all;
  for (VtkEncoding e : {VtkEncoding::Ascii, VtkEncoding::Base64, VtkEncoding::AppendedRaw,
                        VtkEncoding::AppendedBase64}) {
    for (bool zlib : {false, true}) {
      for (bool uint64_header : {false, true}) {
        if (e == VtkEncoding::Ascii && (zlib || !uint64_header)) continue;
        VtkFileOptions o;
        o.encoding = e;
        o.zlib = zlib;
        o.uint64_header = uint64_header;
        all.push_back(o);
      }
    }
  }
  return all;
}

std::string name_of(const VtkFileOptions& o) {
  return "encoding " + std::to_string(static_cast<int>(o.encoding)) + (o.zlib ? " zlib" : "") +
         (o.uint64_header ? " UInt64" : " UInt32");
}

// Value ranges [begin, end) of the attributes of the XML part of a file.
std::vector<std::pair<std::size_t, std::size_t>> attribute_values(const std::string& text) {
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  const std::size_t xml_end = std::min(text.find("<AppendedData"), text.size());
  for (std::size_t at = text.find("=\""); at < xml_end; at = text.find("=\"", at + 1)) {
    const std::size_t end = text.find('"', at + 2);
    ranges.emplace_back(at + 2, end);
  }
  return ranges;
}

const char* const kHostileNumbers[] = {"",
                                       "-1",
                                       "abc",
                                       "1e3",
                                       "0x10",
                                       " 7",
                                       "+-1",
                                       "4294967299",
                                       "1073741824",
                                       "2147483648",
                                       "1000000000000000",
                                       "6148914691236517206",
                                       "9223372036854775808",
                                       "18446744073709551615",
                                       "18446744073709551616",
                                       "99999999999999999999999999"};

TEST_F(MalformedFiles, EveryTruncation) {
  const std::string csv = csv_text(intact_);
  EXPECT_TRUE(same(read_particles_csv(case_file(csv, ".csv")), intact_));
  for (std::size_t cut = 0; cut < csv.size(); ++cut) {
    // A cut can only shorten the last row's sigma: other rows read as they were.
    check(csv.substr(0, cut), ".csv", "csv cut at " + std::to_string(cut),
          [&](const ParticleSet& p) {
            if (p.size() == 0 || p.size() > intact_.size()) return false;
            const std::size_t last = p.size() - 1;
            for (std::size_t i = 0; i < p.size(); ++i) {
              for (auto member : {&ParticleSet::x, &ParticleSet::y, &ParticleSet::z,
                                  &ParticleSet::gx, &ParticleSet::gy, &ParticleSet::gz})
                if ((p.*member)[i] != (intact_.*member)[i]) return false;
              if (i < last && p.sigma[i] != intact_.sigma[i]) return false;
            }
            return true;
          });
  }
  for (const VtkFileOptions& o : every_encoding()) {
    const std::string text = testing::vtk_particles_text(intact_, o);
    EXPECT_TRUE(same(read_particles_vtp(case_file(text, ".vtp")), intact_)) << name_of(o);
    for (std::size_t cut = 0; cut < text.size(); ++cut)
      check_identical(text.substr(0, cut), ".vtp", name_of(o) + " cut at " + std::to_string(cut));
  }
  EXPECT_GT(cases_, 10000);
}

TEST_F(MalformedFiles, HostileFieldsAndAttributes) {
  const std::string csv = csv_text(intact_);
  // Every CSV field (header names included) replaced; each replacement is invalid, or, for a
  // byte order mark before the first name, harmless.
  std::vector<std::string> hostile = {"",     "nan", "-inf", "1e400",        "abc",
                                      "+-1",  "--1", "1e",   "0x1p3",        std::string("1\0", 2),
                                      "\x7f", "1 2", "\"\"", "\xEF\xBB\xBFx"};
  hostile.push_back(std::string(5000, '9') + "e999");
  std::vector<std::pair<std::size_t, std::size_t>> fields;
  for (std::size_t begin = csv.find('\n') + 1, i = begin; i <= csv.size(); ++i) {
    if (i == csv.size() || csv[i] == ',' || csv[i] == '\n') {
      if (i > begin) fields.emplace_back(begin, i);
      begin = i + 1;
    }
  }
  for (const auto& [begin, end] : fields) {
    for (const std::string& value : hostile) {
      std::string text = csv;
      text.replace(begin, end - begin, value);
      check_identical(text, ".csv", "csv field at " + std::to_string(begin));
    }
  }
  // Every attribute of every VTK encoding, plus a seeded draw of random 64-bit numbers.
  for (const VtkFileOptions& o : every_encoding()) {
    const std::string text = testing::vtk_particles_text(intact_, o);
    for (const auto& [begin, end] : attribute_values(text)) {
      std::vector<std::string> values(std::begin(kHostileNumbers), std::end(kHostileNumbers));
      values.push_back(std::to_string(rng_()));
      for (const std::string& value : values) {
        std::string mutated = text;
        mutated.replace(begin, end - begin, value);
        check_identical(mutated, ".vtp",
                        name_of(o) + ": attribute at " + std::to_string(begin) + " = " + value);
      }
    }
  }
}

TEST_F(MalformedFiles, SizeWordsNearOverflow) {
  for (VtkFileOptions o : every_encoding()) {
    if (o.encoding == VtkEncoding::Ascii) continue;
    const int words = o.zlib ? 5 : 1;  // three arrays of at most 72 bytes: two blocks of 40
    for (int array = 0; array < 3; ++array) {
      for (int word = 0; word < words; ++word) {
        std::vector<std::int64_t> deltas = {-1, 1};
        for (std::uint64_t value :
             {std::uint64_t(0), std::uint64_t(1), std::uint64_t(0xffffffff),
              std::uint64_t(0x100000000), std::uint64_t(1) << 63, ~std::uint64_t(0),
              std::uint64_t(6148914691236517206), std::uint64_t(rng_()), std::uint64_t(2),
              std::uint64_t(0xfffffffffffffff0)}) {
          for (int relative = 0; relative < 3; ++relative) {
            o.tamper = [&](int a, int w, std::uint64_t v) {
              if (a != array || w != word) return v;
              return relative == 0 ? value : v + static_cast<std::uint64_t>(deltas[relative - 1]);
            };
            check_identical(testing::vtk_particles_text(intact_, o), ".vtp",
                            name_of(o) + ": array " + std::to_string(array) + " word " +
                                std::to_string(word) + " = " + std::to_string(value));
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace vortex
