#include "vtp_data_array.hpp"

#include <charconv>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>

#include "byte_order.hpp"
#include "solver/text_excerpt.hpp"
#include "vortex/file_io.hpp"
#include "vtk_binary.hpp"

namespace vortex::vtk_xml {
namespace {

double load_as_double(const std::string& type, const unsigned char* bytes, bool swap) {
  if (type == "Float64") return load<double>(bytes, swap);
  if (type == "Float32") return load<float>(bytes, swap);
  if (type == "Int8") return load<std::int8_t>(bytes, swap);
  if (type == "UInt8") return load<std::uint8_t>(bytes, swap);
  if (type == "Int16") return load<std::int16_t>(bytes, swap);
  if (type == "UInt16") return load<std::uint16_t>(bytes, swap);
  if (type == "Int32") return load<std::int32_t>(bytes, swap);
  if (type == "UInt32") return load<std::uint32_t>(bytes, swap);
  if (type == "Int64") return static_cast<double>(load<std::int64_t>(bytes, swap));
  return static_cast<double>(load<std::uint64_t>(bytes, swap));
}

// a * b, or nothing when it does not fit in size_t.
std::optional<std::size_t> checked_product(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::size_t>::max() / a) return std::nullopt;
  return static_cast<std::size_t>(a * b);
}

// One array's data in the file, for its messages.
struct ArrayText {
  const std::string& text;
  const std::string& path;
  const ArraySpec& spec;

  // Built only on error: a file of many pieces reads in linear time.
  FileError fail(const std::string& problem) const {
    return FileError(where(text, path, spec.tag_offset) + "array '" + detail::excerpt(spec.name) +
                     "': " + problem);
  }
};

std::vector<double> decode_ascii(const ArrayText& a, std::size_t count) {
  const std::string& text = a.text;
  const ArraySpec& spec = a.spec;
  std::vector<double> values;
  // A value takes two characters at least: a count beyond that is caught after the parse.
  values.reserve(std::min(count, (spec.text_end - spec.text_begin) / 2 + 1));
  std::size_t i = spec.text_begin;
  while (true) {
    while (i < spec.text_end && std::strchr(" \t\r\n", text[i])) ++i;
    if (i >= spec.text_end) break;
    std::size_t j = i;
    while (j < spec.text_end && !std::strchr(" \t\r\n", text[j])) ++j;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data() + i, text.data() + j, value);
    if (ec != std::errc() || end != text.data() + j) {
      throw FileError(where(text, a.path, i) + "array '" + detail::excerpt(spec.name) + "': \"" +
                      detail::excerpt(std::string_view(text).substr(i, j - i)) +
                      "\" is not a number");
    }
    values.push_back(value);
    i = j;
  }
  if (values.size() != count) {
    throw a.fail("holds " + std::to_string(values.size()) + " values, expected " +
                 std::to_string(count) + " (from NumberOfPoints)");
  }
  return values;
}

std::vector<double> decode_binary(const ArrayText& a, const FileLayout& layout, std::size_t count,
                                  std::size_t bytes_expected) {
  const ArraySpec& spec = a.spec;
  std::size_t begin = spec.text_begin, end = spec.text_end;
  bool base64 = true;
  if (spec.format == "appended") {
    if (!layout.appended_base) throw a.fail("appended data but no <AppendedData>");
    if (spec.offset > a.text.size() - *layout.appended_base) {
      throw a.fail("offset " + std::to_string(spec.offset) + " beyond the end of the file");
    }
    begin = *layout.appended_base + static_cast<std::size_t>(spec.offset);
    end = a.text.size();
    base64 = layout.appended_base64;
  }
  vtk_binary::ByteStream stream(a.text, begin, end, base64);
  vtk_binary::Format format;
  format.header_bytes = layout.header_bytes;
  format.swap = layout.little_endian != host_is_little_endian();
  format.zlib = layout.zlib;
  std::string bytes;
  try {
    bytes = vtk_binary::read_block(stream, format, bytes_expected);
  } catch (const vtk_binary::BlockError& e) {
    throw a.fail(e.what());
  }
  const std::size_t size = type_size(spec.type);
  std::vector<double> values(count);
  const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
  for (std::size_t k = 0; k < count; ++k)
    values[k] = load_as_double(spec.type, raw + k * size, format.swap);
  return values;
}

}  // namespace

std::vector<double> decode_array(const std::string& text, const std::string& path,
                                 const FileLayout& layout, const ArraySpec& spec,
                                 std::uint64_t n_tuples, int components) {
  const ArrayText a{text, path, spec};
  if (spec.components != components) {
    throw a.fail("has " + std::to_string(spec.components) + " components, expected " +
                 std::to_string(components));
  }
  const std::size_t size = type_size(spec.type);
  const auto count = checked_product(n_tuples, static_cast<std::uint64_t>(components));
  const auto bytes_expected = count ? checked_product(*count, size) : std::nullopt;
  if (!bytes_expected) {
    throw a.fail("NumberOfPoints " + std::to_string(n_tuples) + " times " +
                 std::to_string(components) + " components of " + spec.type +
                 " overflows the size of any file");
  }
  if (spec.format == "ascii") return decode_ascii(a, *count);
  return decode_binary(a, layout, *count, *bytes_expected);
}

}  // namespace vortex::vtk_xml
