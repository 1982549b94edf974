#include "support/vtk_files.hpp"

#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace vortex::testing {

namespace {

template <class T>
void append_raw(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

struct Array {
  std::string name;
  int components;
  std::vector<double> values;
};

// The header words and the data bytes of one array's block.
struct Block {
  std::vector<std::uint64_t> header;
  std::string data;
};

Block make_block(const std::vector<double>& values, const VtkFileOptions& o) {
  std::string raw;
  for (double v : values) append_raw(raw, v);
  Block b;
  if (!o.zlib) {
    b.header = {raw.size()};
    b.data = raw;
    return b;
  }
  const std::size_t blocks = (raw.size() + o.zlib_block - 1) / o.zlib_block;
  const std::size_t last = raw.size() - (blocks ? (blocks - 1) * o.zlib_block : 0);
  b.header = {blocks, o.zlib_block, last == o.zlib_block ? 0 : last};
  for (std::size_t k = 0; k < blocks; ++k) {
    const std::size_t n = k + 1 < blocks ? o.zlib_block : last;
    uLongf size = compressBound(n);
    std::string packed(size, '\0');
    if (compress(reinterpret_cast<Bytef*>(packed.data()), &size,
                 reinterpret_cast<const Bytef*>(raw.data() + k * o.zlib_block), n) != Z_OK)
      throw std::runtime_error("zlib compress failed");
    packed.resize(size);
    b.header.push_back(size);
    b.data += packed;
  }
  return b;
}

std::string header_bytes(const Block& b, int array, const VtkFileOptions& o) {
  std::string out;
  for (std::size_t w = 0; w < b.header.size(); ++w) {
    const std::uint64_t v =
        o.tamper ? o.tamper(array, static_cast<int>(w), b.header[w]) : b.header[w];
    if (o.uint64_header)
      append_raw(out, v);
    else
      append_raw(out, static_cast<std::uint32_t>(v));
  }
  return out;
}

std::string ascii_values(const std::vector<double>& values) {
  std::string out;
  char buffer[32];
  for (double v : values) {
    std::snprintf(buffer, sizeof buffer, "%.17g ", v);
    out += buffer;
  }
  return out;
}

}  // namespace

std::string base64(const std::string& bytes) {
  static const char* alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t word = 0;
    for (std::size_t k = 0; k < 3; ++k)
      word = (word << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? alphabet[(word >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

std::string vtk_particles_text(const ParticleSet& p, const VtkFileOptions& o) {
  std::vector<Array> arrays(3);
  arrays[0] = {"Points", 3, {}};
  arrays[1] = {"circulation", 3, {}};
  arrays[2] = {"radius", 1, p.sigma};
  for (std::size_t i = 0; i < p.size(); ++i) {
    arrays[0].values.insert(arrays[0].values.end(), {p.x[i], p.y[i], p.z[i]});
    arrays[1].values.insert(arrays[1].values.end(), {p.gx[i], p.gy[i], p.gz[i]});
  }
  const char* format[] = {"ascii", "binary", "appended", "appended"};
  std::string appended;
  std::vector<std::string> tags;
  for (int a = 0; a < 3; ++a) {
    std::string tag = "<DataArray type=\"Float64\" Name=\"" + arrays[a].name +
                      "\" NumberOfComponents=\"" + std::to_string(arrays[a].components) +
                      "\" format=\"" + format[static_cast<int>(o.encoding)] + "\"";
    if (o.encoding == VtkEncoding::Ascii) {
      tag += ">\n" + ascii_values(arrays[a].values) + "\n</DataArray>\n";
    } else {
      const Block b = make_block(arrays[a].values, o);
      const std::string header = header_bytes(b, a, o);
      if (o.encoding == VtkEncoding::Base64) {
        // As VTK does: the header and the data are encoded as separate runs.
        tag += ">\n" + base64(header) + base64(b.data) + "\n</DataArray>\n";
      } else {
        tag += " offset=\"" + std::to_string(appended.size()) + "\"/>\n";
        appended += o.encoding == VtkEncoding::AppendedRaw ? header + b.data
                                                           : base64(header) + base64(b.data);
      }
    }
    tags.push_back(tag);
  }
  std::string text = "<?xml version=\"1.0\"?>\n<VTKFile type=\"" + o.dataset +
                     "\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"" +
                     (o.uint64_header ? "UInt64" : "UInt32") + "\"" +
                     (o.zlib ? " compressor=\"vtkZLibDataCompressor\"" : "") + ">\n<" + o.dataset +
                     ">\n<Piece NumberOfPoints=\"" + std::to_string(p.size()) + "\">\n<Points>\n" +
                     tags[0] + "</Points>\n<PointData>\n" + tags[1] + tags[2] + "</PointData>\n";
  if (o.dataset == "UnstructuredGrid") {
    text +=
        "<Cells>\n<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">0"
        "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">1"
        "</DataArray>\n<DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">1"
        "</DataArray>\n</Cells>\n";
  }
  text += "</Piece>\n</" + o.dataset + ">\n";
  if (!appended.empty()) {
    text += std::string("<AppendedData encoding=\"") +
            (o.encoding == VtkEncoding::AppendedRaw ? "raw" : "base64") + "\">\n_" + appended +
            "\n</AppendedData>\n";
  }
  return text + "</VTKFile>\n";
}

}  // namespace vortex::testing
