#include "vtk_binary.hpp"

#include <zlib.h>

#include <limits>
#include <vector>

#include "byte_order.hpp"

namespace vortex::vtk_binary {

namespace {

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Deflate expands at most 1032 times: a block that declares more cannot be genuine.
constexpr std::uint64_t kMaxDeflateRatio = 1032;

std::string bytes_text(std::uint64_t n) {
  return std::to_string(n) + " bytes";
}

}  // namespace

ByteStream::ByteStream(std::string_view text, std::size_t begin, std::size_t end, bool base64)
    : text_(text), pos_(begin), end_(end < text.size() ? end : text.size()), base64_(base64) {
  if (pos_ > end_) pos_ = end_;
}

std::size_t ByteStream::max_remaining() const {
  const std::size_t left = end_ - pos_;
  return pending_.size() + (base64_ ? left / 4 * 3 + 3 : left);
}

bool ByteStream::read_group(std::string& out) {
  int values[4];
  int filled = 0, padding = 0;
  while (filled < 4) {
    if (pos_ >= end_) return false;
    const char c = text_[pos_++];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    if (c == '=') {
      values[filled++] = 0;
      ++padding;
      continue;
    }
    const int v = base64_value(c);
    if (v < 0 || padding > 0) return false;
    values[filled++] = v;
  }
  if (padding > 2) return false;
  const std::uint32_t word = (static_cast<std::uint32_t>(values[0]) << 18) |
                             (static_cast<std::uint32_t>(values[1]) << 12) |
                             (static_cast<std::uint32_t>(values[2]) << 6) |
                             static_cast<std::uint32_t>(values[3]);
  const char bytes3[3] = {static_cast<char>(word >> 16), static_cast<char>(word >> 8),
                          static_cast<char>(word)};
  out.append(bytes3, static_cast<std::size_t>(3 - padding));
  return true;
}

bool ByteStream::read(std::string& out, std::size_t bytes) {
  if (bytes > max_remaining()) return false;
  const std::size_t target = out.size() + bytes;
  const std::size_t from_pending = std::min(bytes, pending_.size());
  out.append(pending_, 0, from_pending);
  pending_.erase(0, from_pending);
  if (!base64_) {
    const std::size_t need = target - out.size();
    out.append(text_.data() + pos_, need);
    pos_ += need;
    return true;
  }
  while (out.size() < target) {
    if (!read_group(out)) return false;
  }
  pending_.assign(out, target, std::string::npos);  // at most two bytes of the last group
  out.resize(target);
  return true;
}

namespace {

std::uint64_t read_size(ByteStream& in, const Format& format, const char* what) {
  std::string bytes;
  if (!in.read(bytes, format.header_bytes)) {
    throw BlockError(std::string("truncated or malformed data (") + what + ")");
  }
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
  return format.header_bytes == 8 ? load<std::uint64_t>(raw, format.swap)
                                  : load<std::uint32_t>(raw, format.swap);
}

BlockError size_mismatch(std::uint64_t declared, std::uint64_t expected) {
  return BlockError("holds " + bytes_text(declared) + ", expected " + std::to_string(expected) +
                    " (from NumberOfPoints and NumberOfComponents)");
}

std::string read_plain(ByteStream& in, const Format& format, std::uint64_t expected) {
  const std::uint64_t declared = read_size(in, format, "size header");
  if (declared != expected) throw size_mismatch(declared, expected);
  if (expected > in.max_remaining()) {
    throw BlockError("data runs past the end of the file (" + bytes_text(expected) +
                     " declared, at most " + bytes_text(in.max_remaining()) + " left)");
  }
  std::string out;
  out.reserve(static_cast<std::size_t>(expected));
  if (!in.read(out, static_cast<std::size_t>(expected))) {
    throw BlockError("malformed or truncated data");
  }
  return out;
}

std::string read_compressed(ByteStream& in, const Format& format, std::uint64_t expected) {
  const std::uint64_t blocks = read_size(in, format, "compression header");
  const std::uint64_t block_size = read_size(in, format, "compression header");
  const std::uint64_t last_size = read_size(in, format, "compression header");
  if (blocks > in.max_remaining() / format.header_bytes) {
    throw BlockError("declares " + std::to_string(blocks) +
                     " compressed blocks, more than the file holds");
  }
  if (last_size > block_size) {
    throw BlockError("last compressed block of " + bytes_text(last_size) +
                     " exceeds the block size (" + bytes_text(block_size) + ")");
  }
  std::vector<std::uint64_t> sizes(static_cast<std::size_t>(blocks));
  std::uint64_t compressed = 0;
  for (auto& size : sizes) {
    size = read_size(in, format, "compressed block sizes");
    compressed += size;
    if (size > in.max_remaining() || compressed > in.max_remaining()) {
      throw BlockError("compressed blocks run past the end of the file");
    }
  }
  // Uncompressed size: full blocks, then the last (0: it is full too).
  std::uint64_t total = 0;
  if (blocks > 0) {
    const std::uint64_t last = last_size ? last_size : block_size;
    if (block_size != 0 &&
        blocks - 1 > (std::numeric_limits<std::uint64_t>::max() - last) / block_size) {
      throw BlockError("declared uncompressed size overflows");
    }
    total = (blocks - 1) * block_size + last;
  }
  if (total != expected) throw size_mismatch(total, expected);
  if (expected > (compressed + blocks) * kMaxDeflateRatio) {
    throw BlockError("declares " + bytes_text(expected) + " of data in " + bytes_text(compressed) +
                     " of compressed blocks, more than zlib can encode");
  }
  std::string out(static_cast<std::size_t>(expected), '\0');
  std::string block;
  std::size_t at = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t want = b + 1 < blocks || last_size == 0 ? block_size : last_size;
    block.clear();
    if (!in.read(block, static_cast<std::size_t>(sizes[b]))) {
      throw BlockError("malformed or truncated compressed data");
    }
    uLongf got = static_cast<uLongf>(want);
    const int status =
        uncompress(reinterpret_cast<Bytef*>(out.data() + at), &got,
                   reinterpret_cast<const Bytef*>(block.data()), static_cast<uLong>(block.size()));
    if (status != Z_OK || got != want) {
      throw BlockError("compressed block " + std::to_string(b) + " does not decompress to its " +
                       bytes_text(want) + " (zlib: " + (status == Z_OK ? "short" : zError(status)) +
                       ")");
    }
    at += static_cast<std::size_t>(want);
  }
  return out;
}

}  // namespace

std::string read_block(ByteStream& in, const Format& format, std::uint64_t expected) {
  return format.zlib ? read_compressed(in, format, expected) : read_plain(in, format, expected);
}

}  // namespace vortex::vtk_binary
