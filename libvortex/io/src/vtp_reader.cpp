// Reader of VTK XML PolyData (and UnstructuredGrid point clouds) without VTK: the pieces' points
// and point arrays joined into one data set, and the particle and field readers on top of it. The
// file's structure is read by vtp_layout.cpp, each array's values by vtp_data_array.cpp.

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "solver/text_excerpt.hpp"
#include "vortex/vtp.hpp"
#include "vtp_data_array.hpp"
#include "vtp_layout.hpp"

namespace vortex {

const VtpPointArray* VtpData::find(const std::string& name) const {
  for (const auto& array : arrays) {
    if (array.name == name) return &array;
  }
  return nullptr;
}

namespace {

using vtk_xml::ArraySpec;
using vtk_xml::PieceSpec;

class VtpReader {
 public:
  VtpReader(std::string path) : path_(std::move(path)), text_(read_file(path_)) {}

  VtpData read() {
    layout_ = vtk_xml::scan_layout(text_, path_);
    VtpData data;
    for (std::size_t p = 0; p < layout_.pieces.size(); ++p) {
      const PieceSpec& piece = layout_.pieces[p];
      if (!piece.points && piece.n_points > 0) {
        throw FileError(path_ + ": piece " + std::to_string(p) + " has " +
                        std::to_string(piece.n_points) + " points but no <Points> array");
      }
      if (piece.points) read_points(piece, data.points);
      for (const ArraySpec& spec : piece.point_data) read_array(spec, piece.n_points, p, data);
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
    return vtk_xml::where(text_, path_, offset);
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
  std::vector<double> decode(const ArraySpec& spec, std::uint64_t n_tuples, int components) {
    return vtk_xml::decode_array(text_, path_, layout_, spec, n_tuples, components);
  }

  void read_points(const PieceSpec& piece, Points& points) {
    const std::vector<double> xyz = decode(*piece.points, piece.n_points, 3);
    for (std::size_t i = 0; i < piece.n_points; ++i) {
      for (int c = 0; c < 3; ++c) {
        if (!std::isfinite(xyz[3 * i + c])) {
          throw FileError(scanner_where(piece.points->tag_offset) + "point " +
                          std::to_string(points.size()) + ": coordinate " + "xyz"[c] +
                          " is not finite (" + detail::number_text(xyz[3 * i + c]) + ")");
        }
      }
      points.push_back(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    }
  }

  // Appends the array of piece p to the data's array of that name; the first piece's arrays are
  // the ones kept.
  void read_array(const ArraySpec& spec, std::uint64_t n_points, std::size_t p, VtpData& data) {
    VtpPointArray* target = nullptr;
    for (auto& array : data.arrays) {
      if (array.name == spec.name) target = &array;
    }
    if (!target) {
      if (p > 0) return;  // only arrays present in every piece are kept
      data.arrays.push_back({spec.name, spec.components, {}});
      target = &data.arrays.back();
    }
    if (target->components != spec.components) {
      throw FileError(scanner_where(spec.tag_offset) + "array '" + detail::excerpt(spec.name) +
                      "' has " + std::to_string(spec.components) + " components in one piece and " +
                      std::to_string(target->components) + " in another");
    }
    const std::vector<double> values = decode(spec, n_points, spec.components);
    target->values.insert(target->values.end(), values.begin(), values.end());
  }

  std::string path_;
  std::string text_;
  vtk_xml::FileLayout layout_;
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
