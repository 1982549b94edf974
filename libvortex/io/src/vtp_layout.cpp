#include "vtp_layout.hpp"

#include <charconv>
#include <utility>

#include "solver/text_excerpt.hpp"
#include "vortex/file_io.hpp"
#include "xml_tags.hpp"

namespace vortex::vtk_xml {
namespace {

// More components than any VTK array has; larger counts are malformed.
constexpr int kMaxComponents = 1 << 20;

// Walks the tags once, keeping the stack of open elements and the array whose inline data are
// being read.
class LayoutScanner {
 public:
  LayoutScanner(const std::string& text, const std::string& path)
      : text_(text), path_(path), scanner_(text, text.size(), path) {}

  FileLayout scan() {
    xml::Tag tag;
    while (scanner_.next(tag)) {
      if (tag.kind == xml::Tag::Kind::End) {
        end_tag(tag);
        continue;
      }
      if (!start_tag(tag)) break;  // what follows <AppendedData> is binary
      if (tag.kind == xml::Tag::Kind::Start) stack_.push_back(tag.name);
    }
    if (!seen_vtkfile_) throw FileError(path_ + ": not a VTK XML file (no <VTKFile> element)");
    if (layout_.pieces.empty()) {
      throw FileError(path_ + ": no <Piece> in <" + layout_.dataset + ">");
    }
    return std::move(layout_);
  }

 private:
  std::string where(std::size_t offset) const { return scanner_.where(offset); }

  void end_tag(const xml::Tag& tag) {
    if (stack_.empty() || stack_.back() != tag.name) {
      throw FileError(where(tag.begin) + "unexpected </" + detail::excerpt(tag.name) + ">");
    }
    if (tag.name == "DataArray" && open_array_) {
      if (!array_text_closed_) open_array_->text_end = tag.begin;
      open_array_ = nullptr;
    }
    stack_.pop_back();
  }

  // A start or empty-element tag; false at <AppendedData>.
  bool start_tag(const xml::Tag& tag) {
    const std::string parent = stack_.empty() ? "" : stack_.back();
    // An array's inline data ends where its first child element (an InformationKey) starts.
    if (open_array_ && !array_text_closed_) {
      open_array_->text_end = tag.begin;
      array_text_closed_ = true;
    }
    if (tag.name == "VTKFile") {
      vtk_file(tag);
    } else if (tag.name == "Piece" && parent == layout_.dataset) {
      PieceSpec piece;
      if (const auto* v = tag.attribute("NumberOfPoints")) {
        piece.n_points = parse_count(*v, tag.begin, "NumberOfPoints");
      }
      layout_.pieces.push_back(std::move(piece));
    } else if (tag.name == "DataArray" && !layout_.pieces.empty() &&
               (parent == "Points" || parent == "PointData")) {
      data_array(tag, parent == "Points");
    } else if (tag.name == "AppendedData") {
      appended_data(tag);
      return false;
    }
    return true;
  }

  void vtk_file(const xml::Tag& tag) {
    seen_vtkfile_ = true;
    const auto* type = tag.attribute("type");
    if (!type || (*type != "PolyData" && *type != "UnstructuredGrid")) {
      throw FileError(where(tag.begin) +
                      "not a PolyData or UnstructuredGrid file (VTKFile type=\"" +
                      (type ? detail::excerpt(*type) : "") + "\")");
    }
    layout_.dataset = *type;
    if (const auto* order = tag.attribute("byte_order")) {
      layout_.little_endian = *order != "BigEndian";
    }
    if (const auto* header = tag.attribute("header_type")) {
      if (*header == "UInt64") {
        layout_.header_bytes = 8;
      } else if (*header != "UInt32") {
        throw FileError(where(tag.begin) + "unsupported header_type \"" + detail::excerpt(*header) +
                        "\"");
      }
    }
    if (const auto* compressor = tag.attribute("compressor"); compressor && !compressor->empty()) {
      if (*compressor != "vtkZLibDataCompressor") {
        throw FileError(where(tag.begin) + "compressed files (" + detail::excerpt(*compressor) +
                        ") are not supported; save the file uncompressed or with zlib");
      }
      layout_.zlib = true;
    }
  }

  void data_array(const xml::Tag& tag, bool points) {
    PieceSpec& piece = layout_.pieces.back();
    ArraySpec spec = array_spec(tag);
    spec.text_begin = spec.text_end = tag.end;
    if (points) {
      if (spec.name.empty()) spec.name = "Points";
      if (!piece.points) {
        piece.points = spec;
        open_array_ = &*piece.points;
      }
    } else {
      piece.point_data.push_back(spec);
      open_array_ = &piece.point_data.back();
    }
    array_text_closed_ = false;
    if (tag.kind == xml::Tag::Kind::Empty) open_array_ = nullptr;
  }

  void appended_data(const xml::Tag& tag) {
    const auto* encoding = tag.attribute("encoding");
    layout_.appended_base64 = encoding && *encoding == "base64";
    if (encoding && *encoding != "raw" && *encoding != "base64") {
      throw FileError(where(tag.begin) + "unknown AppendedData encoding \"" +
                      detail::excerpt(*encoding) + "\"");
    }
    const std::size_t marker = text_.find('_', tag.end);
    if (marker == std::string::npos) {
      throw FileError(where(tag.begin) + "AppendedData has no '_' marker");
    }
    layout_.appended_base = marker + 1;
  }

  ArraySpec array_spec(const xml::Tag& tag) const {
    ArraySpec spec;
    spec.tag_offset = tag.begin;
    if (const auto* v = tag.attribute("Name")) spec.name = *v;
    spec.type = tag.attribute("type") ? *tag.attribute("type") : "";
    auto fail = [&](const std::string& problem) {
      return FileError(where(tag.begin) + "DataArray '" + detail::excerpt(spec.name) + "' " +
                       problem);
    };
    if (type_size(spec.type) == 0) {
      throw fail("has unsupported type '" + detail::excerpt(spec.type) + "'");
    }
    if (const auto* v = tag.attribute("NumberOfComponents")) {
      const std::uint64_t components = parse_count(*v, tag.begin, "NumberOfComponents");
      if (components < 1 || components > static_cast<std::uint64_t>(kMaxComponents)) {
        throw fail("has NumberOfComponents " + *v + " (accepted: 1 to " +
                   std::to_string(kMaxComponents) + ")");
      }
      spec.components = static_cast<int>(components);
    }
    spec.format = tag.attribute("format") ? *tag.attribute("format") : "ascii";
    if (spec.format != "ascii" && spec.format != "binary" && spec.format != "appended") {
      throw fail("has unknown format '" + detail::excerpt(spec.format) + "'");
    }
    if (spec.format == "appended") {
      const auto* v = tag.attribute("offset");
      if (!v) {
        throw FileError(where(tag.begin) + "appended DataArray '" + detail::excerpt(spec.name) +
                        "' has no offset");
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
      throw FileError(where(tag_offset) + what + " \"" + detail::excerpt(text) + "\" is too large");
    }
    if (ec != std::errc() || end != text.data() + text.size()) {
      throw FileError(where(tag_offset) + what + " \"" + detail::excerpt(text) +
                      "\" is not a non-negative integer");
    }
    return value;
  }

  const std::string& text_;
  const std::string& path_;
  xml::TagScanner scanner_;
  FileLayout layout_;
  std::vector<std::string> stack_;
  bool seen_vtkfile_ = false;
  ArraySpec* open_array_ = nullptr;
  bool array_text_closed_ = false;
};

}  // namespace

std::size_t type_size(const std::string& type) {
  if (type == "Int8" || type == "UInt8") return 1;
  if (type == "Int16" || type == "UInt16") return 2;
  if (type == "Int32" || type == "UInt32" || type == "Float32") return 4;
  if (type == "Int64" || type == "UInt64" || type == "Float64") return 8;
  return 0;
}

std::string where(const std::string& text, const std::string& path, std::size_t offset) {
  return xml::TagScanner(text, 0, path).where(offset);
}

FileLayout scan_layout(const std::string& text, const std::string& path) {
  return LayoutScanner(text, path).scan();
}

}  // namespace vortex::vtk_xml
