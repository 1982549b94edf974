#pragma once
// The binary blocks of VTK XML arrays: a byte-count header and the data, raw or base64, optionally
// zlib-compressed in blocks. Every size read from the file is checked against overflow and against
// the bytes actually present before anything is allocated.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vortex::vtk_binary {

// A malformed block; the caller adds the file, line and array to the message.
class BlockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bytes from a region of the file, raw or base64-encoded (white space skipped). Base64 is decoded
// four characters at a time and each group yields one to three bytes, so a header encoded on its
// own and one encoded together with the data read the same.
class ByteStream {
 public:
  ByteStream(std::string_view text, std::size_t begin, std::size_t end, bool base64);

  // Appends `bytes` more bytes to `out`; false when the region runs out or is not base64.
  bool read(std::string& out, std::size_t bytes);
  // An upper bound of the bytes still to come (what a declared size must not exceed).
  std::size_t max_remaining() const;

 private:
  bool read_group(std::string& out);

  std::string_view text_;
  std::size_t pos_, end_;
  bool base64_;
  std::string pending_;  // decoded bytes not yet handed out
};

struct Format {
  std::size_t header_bytes = 4;  // UInt32 or UInt64 sizes
  bool swap = false;             // file byte order differs from the host's
  bool zlib = false;             // vtkZLibDataCompressor blocks
};

// Reads one array's block and returns its `expected` data bytes. Throws BlockError when the
// declared sizes disagree with `expected`, overflow, exceed the bytes present, or the data is
// truncated or does not decompress.
std::string read_block(ByteStream& in, const Format& format, std::uint64_t expected);

}  // namespace vortex::vtk_binary
