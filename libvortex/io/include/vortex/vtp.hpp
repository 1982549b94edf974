#pragma once
// VTK XML PolyData (.vtp) files, written and read without VTK.
//
// The writer produces what ParaView and vtkXMLPolyDataReader open as they are: version 1.0,
// little-endian, header_type UInt64, raw appended binary data, Float64 values (so a file reads
// back bit for bit), one vertex cell per point, and these point arrays:
//   circulation (3)          vector strength Gamma of each particle      (particle sets only)
//   radius (1)               core radius sigma                           (particle sets only)
//   velocity (3)             u                                           (with a field)
//   velocity_gradient (9)    du_a/dx_b at component 3a+b, row-major      (with a gradient)
//   vorticity (3)            curl u, from the gradient                   (with a gradient)
// Files are written atomically: a complete file or none.
//
// The reader takes the files we write and, more generally, uncompressed PolyData with ascii,
// inline base64 or appended (raw or base64) arrays of any numeric type, in one or more pieces.
// Errors throw vortex::FileError naming the file, the line of the element and the array.

#include <string>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/file_io.hpp"
#include "vortex/particles.hpp"

namespace vortex {

namespace vtp_arrays {
inline constexpr const char* kCirculation = "circulation";
inline constexpr const char* kRadius = "radius";
inline constexpr const char* kVelocity = "velocity";
inline constexpr const char* kVelocityGradient = "velocity_gradient";
inline constexpr const char* kVorticity = "vorticity";
}  // namespace vtp_arrays

// Particles with circulation and radius, plus velocity (and gradient, vorticity) when `field` is
// given; field->size() must equal particles.size().
void write_vtp(const std::string& path, const ParticleSet& particles,
               const VelocityField* field = nullptr);
// Points, plus velocity (and gradient, vorticity) when `field` is given.
void write_vtp(const std::string& path, PointsView points, const VelocityField* field = nullptr);

// One point array of a .vtp file, converted to double, tuple-major (values[i*components + c]).
struct VtpPointArray {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

// The points and point arrays of a .vtp file (pieces concatenated in file order).
struct VtpData {
  Points points;
  std::vector<VtpPointArray> arrays;

  // The array with this name, or nullptr.
  const VtpPointArray* find(const std::string& name) const;
};

// Reads points and all point arrays; non-finite coordinates are errors.
VtpData read_vtp(const std::string& path);
// A source set: points plus 'circulation' (3) and 'radius' (1); non-finite values and radius <= 0
// are errors, as are files without points.
ParticleSet read_particles_vtp(const std::string& path);
// Target points (the point coordinates; arrays are ignored); files without points are errors.
Points read_points_vtp(const std::string& path);
// The 'velocity' array and, when present, 'velocity_gradient'.
VelocityField read_field_vtp(const std::string& path);

}  // namespace vortex
