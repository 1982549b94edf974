#pragma once
// The values of one VTK XML DataArray, in any encoding ParaView writes: ascii text, inline base64,
// or appended raw or base64 data, uncompressed or zlib-compressed; every size checked against the
// bytes the file holds.

#include <cstdint>
#include <string>
#include <vector>

#include "vtp_layout.hpp"

namespace vortex::vtk_xml {

// n_tuples x components values as doubles. Throws FileError naming the array and its line.
std::vector<double> decode_array(const std::string& text, const std::string& path,
                                 const FileLayout& layout, const ArraySpec& spec,
                                 std::uint64_t n_tuples, int components);

}  // namespace vortex::vtk_xml
