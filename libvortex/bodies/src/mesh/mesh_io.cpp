#include "vortex/bodies/mesh_io.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "vortex/file_io.hpp"

namespace vortex::bodies {

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// Builds a mesh from a triangle soup, merging equal vertices.
class SoupBuilder {
 public:
  int vertex(double x, double y, double z) {
    const auto [it, fresh] = index_.emplace(std::array<double, 3>{x, y, z}, 0);
    if (fresh) {
      it->second = static_cast<int>(mesh_.vertices.size());
      mesh_.vertices.push_back({x, y, z});
    }
    return it->second;
  }
  void triangle(int a, int b, int c) { mesh_.triangles.push_back({a, b, c}); }
  bool empty() const { return mesh_.triangles.empty(); }
  TriangleMesh take() { return std::move(mesh_); }

 private:
  std::map<std::array<double, 3>, int> index_;
  TriangleMesh mesh_;
};

TriangleMesh read_stl_binary(const std::string& path, const std::string& data) {
  std::uint32_t count = 0;
  std::memcpy(&count, data.data() + 80, 4);
  if (data.size() != 84 + 50 * static_cast<std::size_t>(count))
    throw FileError(path + ": binary STL: file size does not match " + std::to_string(count) +
                    " triangles");
  SoupBuilder soup;
  for (std::size_t t = 0; t < count; ++t) {
    float v[12];
    std::memcpy(v, data.data() + 84 + 50 * t, sizeof v);
    int idx[3];
    for (int k = 0; k < 3; ++k) idx[k] = soup.vertex(v[3 + 3 * k], v[4 + 3 * k], v[5 + 3 * k]);
    soup.triangle(idx[0], idx[1], idx[2]);
  }
  return soup.take();
}

TriangleMesh read_stl_ascii(const std::string& path, const std::string& data) {
  std::istringstream in(data);
  SoupBuilder soup;
  std::string word;
  int idx[3], k = 0;
  while (in >> word) {
    if (word != "vertex") continue;
    double x, y, z;
    if (!(in >> x >> y >> z)) throw FileError(path + ": ascii STL: malformed vertex line");
    idx[k++] = soup.vertex(x, y, z);
    if (k == 3) {
      soup.triangle(idx[0], idx[1], idx[2]);
      k = 0;
    }
  }
  if (k != 0) throw FileError(path + ": ascii STL: a facet with fewer than 3 vertices");
  if (soup.empty()) throw FileError(path + ": ascii STL: no facets");
  return soup.take();
}

// The content of the first element <name ...>...</name> (empty for <name/>), or nullopt if there is
// none.
std::optional<std::string> element(const std::string& xml, const std::string& name) {
  for (std::size_t at = xml.find("<" + name); at != std::string::npos;
       at = xml.find("<" + name, at + 1)) {
    const char next = at + name.size() + 1 < xml.size() ? xml[at + name.size() + 1] : '\0';
    if (next != '>' && next != '/' && !std::isspace(static_cast<unsigned char>(next))) continue;
    const std::size_t head_end = xml.find('>', at);
    if (head_end == std::string::npos) return std::nullopt;
    if (xml[head_end - 1] == '/') return std::string();
    const std::size_t close = xml.find("</" + name + ">", head_end);
    if (close == std::string::npos) return std::nullopt;
    return xml.substr(head_end + 1, close - head_end - 1);
  }
  return std::nullopt;
}

// The value of attribute `name` in the opening tag of the first element `tag`, or nullopt.
std::optional<std::string> attribute(const std::string& xml, const std::string& tag,
                                     const std::string& name) {
  const std::size_t at = xml.find("<" + tag);
  if (at == std::string::npos) return std::nullopt;
  const std::string head = xml.substr(at, xml.find('>', at) - at);
  const std::size_t key = head.find(" " + name + "=\"");
  if (key == std::string::npos) return std::nullopt;
  const std::size_t begin = key + name.size() + 3;
  return head.substr(begin, head.find('"', begin) - begin);
}

// The text of the DataArray of the <section> whose opening tag contains `marker` ("" for the
// first), searched within that section only.
std::string data_array_text(const std::string& path, const std::string& xml,
                            const std::string& section, const std::string& marker) {
  const std::optional<std::string> body = element(xml, section);
  if (!body) throw FileError(path + ": no <" + section + "> element");
  const std::string what = "<" + section + ">" + (marker.empty() ? "" : " " + marker);
  for (std::size_t open = body->find("<DataArray"); open != std::string::npos;
       open = body->find("<DataArray", open + 1)) {
    const std::size_t head_end = body->find('>', open);
    if (head_end == std::string::npos) break;
    const std::string head = body->substr(open, head_end - open);
    if (head.find(marker) == std::string::npos) continue;
    if (head.find("format=\"ascii\"") == std::string::npos)
      throw FileError(path + ": " + what + ": only ascii DataArrays are read for meshes");
    if (head.back() == '/') return {};
    const std::size_t close = body->find("</DataArray>", head_end);
    if (close == std::string::npos) throw FileError(path + ": " + what + ": no </DataArray>");
    return body->substr(head_end + 1, close - head_end - 1);
  }
  throw FileError(path + ": " + what + ": no DataArray" +
                  (section == "Points" ? " (the file has no points)" : ""));
}

template <class T>
std::vector<T> numbers(const std::string& path, const std::string& text, const char* what) {
  std::istringstream in(text);
  std::vector<T> out;
  T v;
  while (in >> v) out.push_back(v);
  if (!in.eof())
    throw FileError(path + ": " + what + ": value " + std::to_string(out.size()) +
                    " is not a number of the array's type or is out of its range");
  return out;
}

// A declared count (Piece's NumberOfPoints, NumberOfPolys), where the file gives one, must be the
// number read.
void check_declared(const std::string& path, const std::string& xml, const char* name,
                    std::size_t count) {
  const std::optional<std::string> declared = attribute(xml, "Piece", name);
  if (declared && *declared != std::to_string(count))
    throw FileError(path + ": Piece declares " + name + "=\"" + *declared + "\" but holds " +
                    std::to_string(count));
}

}  // namespace

// Binary when the size is that of the triangle count at bytes 80-83 (a binary header may well
// start with "solid" and name a facet); else ascii when it starts with "solid".
TriangleMesh read_stl(const std::string& path) {
  const std::string data = read_file(path);
  if (data.size() >= 84) {
    std::uint32_t count = 0;
    std::memcpy(&count, data.data() + 80, 4);
    if (data.size() == 84 + 50 * static_cast<std::size_t>(count))
      return read_stl_binary(path, data);
  }
  if (data.compare(0, 5, "solid") == 0) return read_stl_ascii(path, data);
  if (data.size() < 84) throw FileError(path + ": not an STL file (too short)");
  return read_stl_binary(path, data);  // names the size mismatch
}

TriangleMesh read_mesh_vtp(const std::string& path) {
  const std::string xml = read_file(path);
  if (xml.find("type=\"PolyData\"") == std::string::npos)
    throw FileError(path + ": not a VTK PolyData file");
  if (xml.find("<Piece", xml.find("<Piece") + 1) != std::string::npos)
    throw FileError(path + ": several Pieces: a mesh is read from a file of one Piece");
  const auto xyz = numbers<double>(path, data_array_text(path, xml, "Points", ""), "Points");
  const auto conn = numbers<long long>(
      path, data_array_text(path, xml, "Polys", "Name=\"connectivity\""), "connectivity");
  const auto offs =
      numbers<long long>(path, data_array_text(path, xml, "Polys", "Name=\"offsets\""), "offsets");
  if (xyz.empty()) throw FileError(path + ": <Points>: no points");
  if (xyz.size() % 3 != 0) throw FileError(path + ": Points: not a multiple of 3 values");
  if (offs.empty()) throw FileError(path + ": <Polys>: no cells");
  const auto points = static_cast<long long>(xyz.size() / 3);
  if (points > std::numeric_limits<int>::max())
    throw FileError(path + ": Points: more than " +
                    std::to_string(std::numeric_limits<int>::max()) + " points");
  check_declared(path, xml, "NumberOfPoints", xyz.size() / 3);
  check_declared(path, xml, "NumberOfPolys", offs.size());
  TriangleMesh m;
  for (std::size_t i = 0; i < xyz.size(); i += 3)
    m.vertices.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  long long begin = 0;
  for (std::size_t c = 0; c < offs.size(); ++c) {
    if (offs[c] - begin != 3 || offs[c] > static_cast<long long>(conn.size()))
      throw FileError(path + ": Polys: cell " + std::to_string(c) + " is not a triangle");
    std::array<int, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      const long long v = conn[begin + k];  // checked before narrowing to int
      if (v < 0 || v >= points)
        throw FileError(path + ": Polys: cell " + std::to_string(c) + " refers to point " +
                        std::to_string(v) + ", out of range (" + std::to_string(points) +
                        " points)");
      tri[k] = static_cast<int>(v);
    }
    m.triangles.push_back(tri);
    begin = offs[c];
  }
  if (begin != static_cast<long long>(conn.size()))
    throw FileError(path + ": Polys: the connectivity has " + std::to_string(conn.size()) +
                    " values, the offsets end at " + std::to_string(begin));
  return m;
}

TriangleMesh read_mesh(const std::string& path) {
  if (ends_with(path, ".stl") || ends_with(path, ".STL")) return read_stl(path);
  if (ends_with(path, ".vtp")) return read_mesh_vtp(path);
  throw FileError(path + ": unknown mesh format (use .stl or .vtp)");
}

void write_surface_vtp(const std::string& path, const TriangleMesh& mesh,
                       const std::vector<CellArray>& cell_data) {
  for (const auto& a : cell_data)
    if (a.values.size() != mesh.size() * static_cast<std::size_t>(a.components))
      throw std::invalid_argument("write_surface_vtp: cell array '" + a.name +
                                  "' does not have one tuple per triangle");
  std::ostringstream o;
  o.precision(17);
  o << "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"1.0\" "
       "byte_order=\"LittleEndian\">\n<PolyData>\n<Piece NumberOfPoints=\""
    << mesh.vertices.size() << "\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" "
    << "NumberOfPolys=\"" << mesh.size() << "\">\n<Points>\n<DataArray type=\"Float64\" "
    << "NumberOfComponents=\"3\" format=\"ascii\">\n";
  for (const auto& v : mesh.vertices) o << v[0] << ' ' << v[1] << ' ' << v[2] << '\n';
  o << "</DataArray>\n</Points>\n<Polys>\n<DataArray type=\"Int64\" Name=\"connectivity\" "
       "format=\"ascii\">\n";
  for (const auto& t : mesh.triangles) o << t[0] << ' ' << t[1] << ' ' << t[2] << '\n';
  o << "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
  for (std::size_t i = 1; i <= mesh.size(); ++i) o << 3 * i << '\n';
  o << "</DataArray>\n</Polys>\n<CellData>\n";
  for (const auto& a : cell_data) {
    o << "<DataArray type=\"Float64\" Name=\"" << a.name << "\" NumberOfComponents=\""
      << a.components << "\" format=\"ascii\">\n";
    for (double v : a.values) o << v << '\n';
    o << "</DataArray>\n";
  }
  o << "</CellData>\n</Piece>\n</PolyData>\n</VTKFile>\n";
  AtomicFile file(path);
  file.write(o.str());
  file.commit();
}

}  // namespace vortex::bodies
