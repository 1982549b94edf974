#pragma once
// VTK XML files written independently of the library, in every encoding its reader accepts:
// ascii, inline base64, appended raw or base64, each optionally zlib-compressed in blocks, with
// UInt32 or UInt64 size headers; the size words can be tampered with on the way out.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "vortex/particles.hpp"

namespace vortex::testing {

enum class VtkEncoding { Ascii, Base64, AppendedRaw, AppendedBase64 };

struct VtkFileOptions {
  VtkEncoding encoding = VtkEncoding::AppendedRaw;
  bool zlib = false;
  bool uint64_header = true;
  std::size_t zlib_block = 40;       // bytes per compressed block (small: several blocks)
  std::string dataset = "PolyData";  // or UnstructuredGrid
  // Called for every size word of every array's header (word 0 is the byte count, or with zlib
  // the block count, then block size, last block size and compressed sizes); returns the value
  // written.
  std::function<std::uint64_t(int array, int word, std::uint64_t value)> tamper;
};

std::string base64(const std::string& bytes);

// A file of one piece holding the particles: Points, 'circulation' (3) and 'radius' (1), Float64.
std::string vtk_particles_text(const ParticleSet& p, const VtkFileOptions& options);

}  // namespace vortex::testing
