#pragma once
// The structure of a VTK XML PolyData or UnstructuredGrid file, read from its tags: the pieces,
// their point arrays and where each array's data lie (inline text or an offset into the appended
// data), with the encoding the file declares.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace vortex::vtk_xml {

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
  std::string dataset = "PolyData";  // or UnstructuredGrid, whose cells are ignored
  bool little_endian = true;
  std::size_t header_bytes = 4;  // UInt32 unless header_type says UInt64
  std::vector<PieceSpec> pieces;
  std::optional<std::size_t> appended_base;  // offset of the byte after '_'
  bool appended_base64 = false;
  bool zlib = false;  // arrays compressed by vtkZLibDataCompressor
};

// Bytes per value of a VTK type name; 0 for a type we do not read.
std::size_t type_size(const std::string& type);

// "path:line: " of a byte offset in the file's text, for error messages.
std::string where(const std::string& text, const std::string& path, std::size_t offset);

// Scans the file's tags up to the appended data. Throws FileError naming the line of a tag the
// reader cannot take.
FileLayout scan_layout(const std::string& text, const std::string& path);

}  // namespace vortex::vtk_xml
