// Reader of VTK XML PolyData (and UnstructuredGrid point clouds) without VTK: points and point
// arrays in ascii, inline base64 or appended (raw or base64) form, uncompressed or zlib-compressed.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "byte_order.hpp"
#include "text_excerpt.hpp"
#include "vortex/vtp.hpp"
#include "vtk_binary.hpp"
#include "xml_tags.hpp"

namespace vortex {

const VtpPointArray* VtpData::find(const std::string& name) const {
  for (const auto& array : arrays) {
    if (array.name == name) return &array;
  }
  return nullptr;
}

namespace {

// More components than any VTK array has; larger counts are malformed.
constexpr int kMaxComponents = 1 << 20;

struct ArraySpec {
  std::string name;
  std::string type;
  int components = 1;
  std::string format;
  std::uint64_t offset = 0;
  std::size_t text_begin = 0, text_end = 0;  // inline data between the tags
  std::size_t tag_offset = 0;
};

struct PieceSpec {
  std::uint64_t n_points = 0;
  std::optional<ArraySpec> points;
  std::vector<ArraySpec> point_data;
};

struct FileLayout {
  bool little_endian = true;
  std::size_t header_bytes = 4;  // UInt32 unless header_type says UInt64
  std::vector<PieceSpec> pieces;
  std::optional<std::size_t> appended_base;  // offset of the byte after '_'
  bool appended_base64 = false;
  bool zlib = false;  // arrays compressed by vtkZLibDataCompressor
};

std::size_t type_size(const std::string& type) {
  if (type == "Int8" || type == "UInt8") return 1;
  if (type == "Int16" || type == "UInt16") return 2;
  if (type == "Int32" || type == "UInt32" || type == "Float32") return 4;
  if (type == "Int64" || type == "UInt64" || type == "Float64") return 8;
  return 0;
}

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

class VtpReader {
 public:
  VtpReader(std::string path) : path_(std::move(path)), text_(read_file(path_)) {}

  VtpData read() {
    scan_layout();
    VtpData data;
    for (std::size_t p = 0; p < layout_.pieces.size(); ++p) {
      const PieceSpec& piece = layout_.pieces[p];
      if (!piece.points && piece.n_points > 0) {
        throw FileError(path_ + ": piece " + std::to_string(p) + " has " +
                        std::to_string(piece.n_points) + " points but no <Points> array");
      }
      if (piece.points) {
        const std::vector<double> xyz = decode(*piece.points, piece.n_points, 3);
        for (std::size_t i = 0; i < piece.n_points; ++i) {
          for (int c = 0; c < 3; ++c) {
            if (!std::isfinite(xyz[3 * i + c])) {
              throw FileError(scanner_where(piece.points->tag_offset) + "point " +
                              std::to_string(data.points.size()) + ": coordinate " + "xyz"[c] +
                              " is not finite (" + detail::number_text(xyz[3 * i + c]) + ")");
            }
          }
          data.points.push_back(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
        }
      }
      for (const ArraySpec& spec : piece.point_data) {
        VtpPointArray* target = nullptr;
        for (auto& array : data.arrays) {
          if (array.name == spec.name) target = &array;
        }
        if (!target) {
          if (p > 0) continue;  // only arrays present in every piece are kept
          data.arrays.push_back({spec.name, spec.components, {}});
          target = &data.arrays.back();
        }
        if (target->components != spec.components) {
          throw FileError(scanner_where(spec.tag_offset) + "array '" + detail::excerpt(spec.name) +
                          "' has " + std::to_string(spec.components) +
                          " components in one piece and " + std::to_string(target->components) +
                          " in another");
        }
        const std::vector<double> values = decode(spec, piece.n_points, spec.components);
        target->values.insert(target->values.end(), values.begin(), values.end());
      }
      // Arrays missing from this piece cannot be kept.
      const std::size_t total = data.points.size();
      for (std::size_t a = 0; a < data.arrays.size();) {
        if (data.arrays[a].values.size() != total * data.arrays[a].components) {
          data.arrays.erase(data.arrays.begin() + static_cast<std::ptrdiff_t>(a));
        } else {
          ++a;
        }
      }
    }
    return data;
  }

  const std::string& path() const { return path_; }
  std::string scanner_where(std::size_t offset) const {
    return xml::TagScanner(text_, 0, path_).where(offset);
  }
  // The line of the array's tag, for errors about its values.
  std::size_t array_tag_offset(const std::string& name) const {
    for (const auto& piece : layout_.pieces) {
      for (const auto& spec : piece.point_data) {
        if (spec.name == name) return spec.tag_offset;
      }
    }
    return 0;
  }

 private:
  ArraySpec array_spec(const xml::Tag& tag) {
    ArraySpec spec;
    spec.tag_offset = tag.begin;
    if (const auto* v = tag.attribute("Name")) spec.name = *v;
    spec.type = tag.attribute("type") ? *tag.attribute("type") : "";
    if (type_size(spec.type) == 0) {
      throw FileError(scanner_where(tag.begin) + "DataArray '" + detail::excerpt(spec.name) +
                      "' has unsupported type '" + detail::excerpt(spec.type) + "'");
    }
    if (const auto* v = tag.attribute("NumberOfComponents")) {
      const std::uint64_t components = parse_count(*v, tag.begin, "NumberOfComponents");
      if (components < 1 || components > static_cast<std::uint64_t>(kMaxComponents)) {
        throw FileError(scanner_where(tag.begin) + "DataArray '" + detail::excerpt(spec.name) +
                        "' has NumberOfComponents " + *v + " (accepted: 1 to " +
                        std::to_string(kMaxComponents) + ")");
      }
      spec.components = static_cast<int>(components);
    }
    spec.format = tag.attribute("format") ? *tag.attribute("format") : "ascii";
    if (spec.format != "ascii" && spec.format != "binary" && spec.format != "appended") {
      throw FileError(scanner_where(tag.begin) + "DataArray '" + detail::excerpt(spec.name) +
                      "' has unknown format '" + detail::excerpt(spec.format) + "'");
    }
    if (spec.format == "appended") {
      const auto* v = tag.attribute("offset");
      if (!v) {
        throw FileError(scanner_where(tag.begin) + "appended DataArray '" +
                        detail::excerpt(spec.name) + "' has no offset");
      }
      spec.offset = parse_count(*v, tag.begin, "offset");
    }
    return spec;
  }

  // A non-negative integer attribute; the message (with the line) is built only on error.
  std::uint64_t parse_count(const std::string& text, std::size_t tag_offset,
                            const char* what) const {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc::result_out_of_range) {
      throw FileError(scanner_where(tag_offset) + what + " \"" + detail::excerpt(text) +
                      "\" is too large");
    }
    if (ec != std::errc() || end != text.data() + text.size()) {
      throw FileError(scanner_where(tag_offset) + what + " \"" + detail::excerpt(text) +
                      "\" is not a non-negative integer");
    }
    return value;
  }

  void scan_layout() {
    xml::TagScanner scanner(text_, text_.size(), path_);
    xml::Tag tag;
    std::vector<std::string> stack;
    bool seen_vtkfile = false;
    ArraySpec* open_array = nullptr;
    bool array_text_closed = false;
    while (scanner.next(tag)) {
      if (tag.kind == xml::Tag::Kind::End) {
        if (stack.empty() || stack.back() != tag.name) {
          throw FileError(scanner.where(tag.begin) + "unexpected </" + detail::excerpt(tag.name) +
                          ">");
        }
        if (tag.name == "DataArray" && open_array) {
          if (!array_text_closed) open_array->text_end = tag.begin;
          open_array = nullptr;
        }
        stack.pop_back();
        continue;
      }
      const std::string parent = stack.empty() ? "" : stack.back();
      // An array's inline data ends where its first child element (an InformationKey) starts.
      if (open_array && !array_text_closed) {
        open_array->text_end = tag.begin;
        array_text_closed = true;
      }
      if (tag.name == "VTKFile") {
        seen_vtkfile = true;
        const auto* type = tag.attribute("type");
        if (!type || (*type != "PolyData" && *type != "UnstructuredGrid")) {
          throw FileError(scanner.where(tag.begin) +
                          "not a PolyData or UnstructuredGrid file (VTKFile type=\"" +
                          (type ? detail::excerpt(*type) : "") + "\")");
        }
        dataset_ = *type;
        if (const auto* order = tag.attribute("byte_order")) {
          layout_.little_endian = *order != "BigEndian";
        }
        if (const auto* header = tag.attribute("header_type")) {
          if (*header == "UInt64") {
            layout_.header_bytes = 8;
          } else if (*header != "UInt32") {
            throw FileError(scanner.where(tag.begin) + "unsupported header_type \"" +
                            detail::excerpt(*header) + "\"");
          }
        }
        if (const auto* compressor = tag.attribute("compressor");
            compressor && !compressor->empty()) {
          if (*compressor != "vtkZLibDataCompressor") {
            throw FileError(scanner.where(tag.begin) + "compressed files (" +
                            detail::excerpt(*compressor) +
                            ") are not supported; save the file uncompressed or with zlib");
          }
          layout_.zlib = true;
        }
      } else if (tag.name == "Piece" && parent == dataset_) {
        PieceSpec piece;
        if (const auto* v = tag.attribute("NumberOfPoints")) {
          piece.n_points = parse_count(*v, tag.begin, "NumberOfPoints");
        }
        layout_.pieces.push_back(std::move(piece));
      } else if (tag.name == "DataArray" && !layout_.pieces.empty() &&
                 (parent == "Points" || parent == "PointData")) {
        PieceSpec& piece = layout_.pieces.back();
        ArraySpec spec = array_spec(tag);
        spec.text_begin = spec.text_end = tag.end;
        if (parent == "Points") {
          if (spec.name.empty()) spec.name = "Points";
          if (!piece.points) {
            piece.points = spec;
            open_array = &*piece.points;
          }
        } else {
          piece.point_data.push_back(spec);
          open_array = &piece.point_data.back();
        }
        array_text_closed = false;
        if (tag.kind == xml::Tag::Kind::Empty) open_array = nullptr;
      } else if (tag.name == "AppendedData") {
        const auto* encoding = tag.attribute("encoding");
        layout_.appended_base64 = encoding && *encoding == "base64";
        if (encoding && *encoding != "raw" && *encoding != "base64") {
          throw FileError(scanner.where(tag.begin) + "unknown AppendedData encoding \"" +
                          detail::excerpt(*encoding) + "\"");
        }
        const std::size_t marker = text_.find('_', tag.end);
        if (marker == std::string::npos) {
          throw FileError(scanner.where(tag.begin) + "AppendedData has no '_' marker");
        }
        layout_.appended_base = marker + 1;
        break;  // what follows is binary
      }
      if (tag.kind == xml::Tag::Kind::Start) stack.push_back(tag.name);
    }
    if (!seen_vtkfile) throw FileError(path_ + ": not a VTK XML file (no <VTKFile> element)");
    if (layout_.pieces.empty()) {
      throw FileError(path_ + ": no <Piece> in <" + dataset_ + ">");
    }
  }

  std::vector<double> decode(const ArraySpec& spec, std::uint64_t n_tuples, int components) {
    // Messages are built only on error: a file of many pieces reads in linear time.
    auto fail = [&](const std::string& problem) {
      return FileError(scanner_where(spec.tag_offset) + "array '" + detail::excerpt(spec.name) +
                       "': " + problem);
    };
    if (spec.components != components) {
      throw fail("has " + std::to_string(spec.components) + " components, expected " +
                 std::to_string(components));
    }
    const std::size_t size = type_size(spec.type);
    const auto count = checked_product(n_tuples, static_cast<std::uint64_t>(components));
    const auto bytes_expected = count ? checked_product(*count, size) : std::nullopt;
    if (!bytes_expected) {
      throw fail("NumberOfPoints " + std::to_string(n_tuples) + " times " +
                 std::to_string(components) + " components of " + spec.type +
                 " overflows the size of any file");
    }
    if (spec.format == "ascii") return decode_ascii(spec, *count);

    std::size_t begin = spec.text_begin, end = spec.text_end;
    bool base64 = true;
    if (spec.format == "appended") {
      if (!layout_.appended_base) throw fail("appended data but no <AppendedData>");
      if (spec.offset > text_.size() - *layout_.appended_base) {
        throw fail("offset " + std::to_string(spec.offset) + " beyond the end of the file");
      }
      begin = *layout_.appended_base + static_cast<std::size_t>(spec.offset);
      end = text_.size();
      base64 = layout_.appended_base64;
    }
    vtk_binary::ByteStream stream(text_, begin, end, base64);
    vtk_binary::Format format;
    format.header_bytes = layout_.header_bytes;
    format.swap = layout_.little_endian != host_is_little_endian();
    format.zlib = layout_.zlib;
    std::string bytes;
    try {
      bytes = vtk_binary::read_block(stream, format, *bytes_expected);
    } catch (const vtk_binary::BlockError& e) {
      throw fail(e.what());
    }
    std::vector<double> values(*count);
    const auto* raw = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t k = 0; k < *count; ++k)
      values[k] = load_as_double(spec.type, raw + k * size, format.swap);
    return values;
  }

  std::vector<double> decode_ascii(const ArraySpec& spec, std::size_t count) {
    std::vector<double> values;
    // A value takes two characters at least: a count beyond that is caught after the parse.
    values.reserve(std::min(count, (spec.text_end - spec.text_begin) / 2 + 1));
    std::size_t i = spec.text_begin;
    while (true) {
      while (i < spec.text_end && std::strchr(" \t\r\n", text_[i])) ++i;
      if (i >= spec.text_end) break;
      std::size_t j = i;
      while (j < spec.text_end && !std::strchr(" \t\r\n", text_[j])) ++j;
      double value = 0;
      const auto [end, ec] = std::from_chars(text_.data() + i, text_.data() + j, value);
      if (ec != std::errc() || end != text_.data() + j) {
        throw FileError(scanner_where(i) + "array '" + detail::excerpt(spec.name) + "': \"" +
                        detail::excerpt(std::string_view(text_).substr(i, j - i)) +
                        "\" is not a number");
      }
      values.push_back(value);
      i = j;
    }
    if (values.size() != count) {
      throw FileError(scanner_where(spec.tag_offset) + "array '" + detail::excerpt(spec.name) +
                      "': holds " + std::to_string(values.size()) + " values, expected " +
                      std::to_string(count) + " (from NumberOfPoints)");
    }
    return values;
  }

  std::string path_;
  std::string text_;
  std::string dataset_ = "PolyData";  // or UnstructuredGrid, whose cells are ignored
  FileLayout layout_;
};

const VtpPointArray& require(const VtpData& data, const VtpReader& reader, const char* name,
                             int components) {
  const VtpPointArray* array = data.find(name);
  if (!array) throw FileError(reader.path() + ": missing point array '" + name + "'");
  if (array->components != components) {
    throw FileError(reader.scanner_where(reader.array_tag_offset(name)) + "array '" + name +
                    "' has " + std::to_string(array->components) + " components, expected " +
                    std::to_string(components));
  }
  return *array;
}

}  // namespace

VtpData read_vtp(const std::string& path) {
  return VtpReader(path).read();
}

ParticleSet read_particles_vtp(const std::string& path) {
  VtpReader reader(path);
  VtpData data = reader.read();
  const std::size_t n = data.points.size();
  if (n == 0) throw FileError(path + ": empty file: no points");
  const VtpPointArray& circulation = require(data, reader, vtp_arrays::kCirculation, 3);
  const VtpPointArray& radius = require(data, reader, vtp_arrays::kRadius, 1);
  auto where = [&](const char* name, std::size_t i) {
    return reader.scanner_where(reader.array_tag_offset(name)) + "array '" + name + "', point " +
           std::to_string(i) + ": ";
  };
  ParticleSet p;
  p.x = std::move(data.points.x);
  p.y = std::move(data.points.y);
  p.z = std::move(data.points.z);
  p.gx.resize(n);
  p.gy.resize(n);
  p.gz.resize(n);
  p.sigma.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) {
      const double g = circulation.values[3 * i + c];
      if (!std::isfinite(g)) {
        throw FileError(where(vtp_arrays::kCirculation, i) + "value " + detail::number_text(g) +
                        " is not finite");
      }
    }
    p.gx[i] = circulation.values[3 * i];
    p.gy[i] = circulation.values[3 * i + 1];
    p.gz[i] = circulation.values[3 * i + 2];
    const double s = radius.values[i];
    if (!std::isfinite(s)) {
      throw FileError(where(vtp_arrays::kRadius, i) + "value " + detail::number_text(s) +
                      " is not finite");
    }
    if (!(s > 0)) {
      throw FileError(where(vtp_arrays::kRadius, i) + "core radius must be positive, got " +
                      detail::number_text(s));
    }
    p.sigma[i] = s;
  }
  return p;
}

Points read_points_vtp(const std::string& path) {
  VtpData data = read_vtp(path);
  if (data.points.size() == 0) throw FileError(path + ": empty file: no points");
  return std::move(data.points);
}

VelocityField read_field_vtp(const std::string& path) {
  VtpReader reader(path);
  const VtpData data = reader.read();
  const std::size_t n = data.points.size();
  const VtpPointArray& velocity = require(data, reader, vtp_arrays::kVelocity, 3);
  const VtpPointArray* gradient = data.find(vtp_arrays::kVelocityGradient);
  if (gradient) gradient = &require(data, reader, vtp_arrays::kVelocityGradient, 9);
  VelocityField field;
  field.resize(n, gradient != nullptr);
  for (std::size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 3; ++c) field.u[c][i] = velocity.values[3 * i + c];
    if (gradient) {
      for (int c = 0; c < 9; ++c) field.du[c][i] = gradient->values[9 * i + c];
    }
  }
  return field;
}

}  // namespace vortex
