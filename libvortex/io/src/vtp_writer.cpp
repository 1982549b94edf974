// Writer of VTK XML PolyData: raw appended Float64 arrays behind a UInt64 byte count each.

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "byte_order.hpp"
#include "vortex/vtp.hpp"
#include "xml_tags.hpp"

namespace vortex {

namespace {

// One array of the file, given as per-component columns (structure of arrays).
struct ArrayColumns {
  std::string name;
  std::vector<const double*> components;
};

template <class T>
void append_little_endian(std::string& out, T value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  if (!host_is_little_endian()) {
    for (std::size_t k = 0; k < sizeof(T) / 2; ++k) std::swap(bytes[k], bytes[sizeof(T) - 1 - k]);
  }
  out.append(reinterpret_cast<const char*>(bytes), sizeof(T));
}

std::string data_array_tag(const char* type, const std::string& name, std::size_t components,
                           std::uint64_t offset) {
  return "<DataArray type=\"" + std::string(type) + "\" Name=\"" + xml::escape(name) +
         "\" NumberOfComponents=\"" + std::to_string(components) +
         "\" format=\"appended\" offset=\"" + std::to_string(offset) + "\"/>\n";
}

// Streams one appended block (byte count, then the tuples) into the file in chunks.
class BlockWriter {
 public:
  explicit BlockWriter(AtomicFile& file) : file_(file) {}

  void columns(const std::vector<const double*>& components, std::size_t n) {
    header(n * components.size() * sizeof(double));
    for (std::size_t i = 0; i < n; ++i) {
      for (const double* column : components) append_little_endian(chunk_, column[i]);
      flush_if_full();
    }
    flush();
  }

  void sequence(std::int64_t first, std::size_t n) {
    header(n * sizeof(std::int64_t));
    for (std::size_t i = 0; i < n; ++i) {
      append_little_endian(chunk_, first + static_cast<std::int64_t>(i));
      flush_if_full();
    }
    flush();
  }

 private:
  void header(std::uint64_t bytes) { append_little_endian(chunk_, bytes); }
  void flush_if_full() {
    if (chunk_.size() >= (1u << 20)) flush();
  }
  void flush() {
    file_.write(chunk_);
    chunk_.clear();
  }

  AtomicFile& file_;
  std::string chunk_;
};

void write_polydata(const std::string& path, PointsView points,
                    const std::vector<ArrayColumns>& arrays) {
  const std::size_t n = points.size();
  const std::string count = std::to_string(n);

  // Block sizes are known up front, so the offsets can be written in the XML header.
  std::uint64_t offset = 0;
  auto next_offset = [&](std::size_t components, std::size_t value_bytes) {
    const std::uint64_t here = offset;
    offset += sizeof(std::uint64_t) + n * components * value_bytes;
    return here;
  };

  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\">\n"
      "<PolyData>\n"
      "<Piece NumberOfPoints=\"" +
      count + "\" NumberOfVerts=\"" + count +
      "\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"0\">\n";
  xml += "<PointData>\n";
  for (const auto& array : arrays) {
    xml += data_array_tag("Float64", array.name, array.components.size(),
                          next_offset(array.components.size(), sizeof(double)));
  }
  xml += "</PointData>\n<Points>\n";
  xml += data_array_tag("Float64", "Points", 3, next_offset(3, sizeof(double)));
  xml += "</Points>\n<Verts>\n";
  xml += data_array_tag("Int64", "connectivity", 1, next_offset(1, sizeof(std::int64_t)));
  xml += data_array_tag("Int64", "offsets", 1, next_offset(1, sizeof(std::int64_t)));
  xml +=
      "</Verts>\n</Piece>\n</PolyData>\n"
      "<AppendedData encoding=\"raw\">\n_";

  AtomicFile file(path);
  file.write(xml);
  BlockWriter blocks(file);
  for (const auto& array : arrays) blocks.columns(array.components, n);
  blocks.columns({points.x, points.y, points.z}, n);
  blocks.sequence(0, n);  // connectivity: vertex i is point i
  blocks.sequence(1, n);  // offsets: one past the end of each cell's connectivity
  file.write("\n</AppendedData>\n</VTKFile>\n");
  file.commit();
}

// Velocity, gradient and vorticity columns of a field (vorticity is computed into `vorticity`).
void add_field_arrays(const VelocityField& field, std::size_t n,
                      std::array<std::vector<double>, 3>& vorticity,
                      std::vector<ArrayColumns>& arrays) {
  if (field.size() != n) {
    throw std::invalid_argument("write_vtp: " + std::to_string(field.size()) + " results for " +
                                std::to_string(n) + " points");
  }
  arrays.push_back(
      {vtp_arrays::kVelocity, {field.u[0].data(), field.u[1].data(), field.u[2].data()}});
  if (!field.has_gradient) return;
  ArrayColumns gradient{vtp_arrays::kVelocityGradient, {}};
  for (const auto& component : field.du) gradient.components.push_back(component.data());
  arrays.push_back(std::move(gradient));
  for (auto& c : vorticity) c.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto w = field.vorticity(i);
    for (int c = 0; c < 3; ++c) vorticity[c][i] = w[c];
  }
  arrays.push_back(
      {vtp_arrays::kVorticity, {vorticity[0].data(), vorticity[1].data(), vorticity[2].data()}});
}

}  // namespace

void write_vtp(const std::string& path, const ParticleSet& particles, const VelocityField* field) {
  validate_sources(particles);
  std::vector<ArrayColumns> arrays;
  arrays.push_back(
      {vtp_arrays::kCirculation, {particles.gx.data(), particles.gy.data(), particles.gz.data()}});
  arrays.push_back({vtp_arrays::kRadius, {particles.sigma.data()}});
  std::array<std::vector<double>, 3> vorticity;
  if (field) add_field_arrays(*field, particles.size(), vorticity, arrays);
  write_polydata(path, PointsView(particles), arrays);
}

void write_vtp(const std::string& path, PointsView points, const VelocityField* field) {
  std::vector<ArrayColumns> arrays;
  std::array<std::vector<double>, 3> vorticity;
  if (field) add_field_arrays(*field, points.size(), vorticity, arrays);
  write_polydata(path, points, arrays);
}

}  // namespace vortex
