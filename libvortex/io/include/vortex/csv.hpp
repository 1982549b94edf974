#pragma once
// Particle and result files in CSV.
//
// Input: a header line naming the columns (any order, extra columns ignored, names compared without
// regard to case), then one row per particle. Lines starting with '#' and blank lines are skipped.
// Sources need x,y,z,Gx,Gy,Gz,sigma; targets need x,y,z.
//
// Output: results have the columns x,y,z,ux,uy,uz and, with the gradient,
// dux_dx,dux_dy,dux_dz,duy_dx,duy_dy,duy_dz,duz_dx,duz_dy,duz_dz (du_a/dx_b), one row per target in
// input order; every value has 17 significant digits (as %.17g), so it reads back exactly.
//
// Errors throw vortex::FileError naming the file, line and column, e.g.
//   particles.csv:12: column 'sigma': "abc" is not a number

#include <string>

#include "vortex/field.hpp"
#include "vortex/file_io.hpp"
#include "vortex/particles.hpp"

namespace vortex {

// The header line written for particle sets (and read back by read_particles_csv).
extern const char* const kParticleCsvHeader;  // "x,y,z,Gx,Gy,Gz,sigma"
// The header line of a result file, with or without the gradient columns.
std::string field_csv_header(bool gradient);

// Reads a source set. Rejects missing columns, malformed or non-finite numbers, sigma <= 0, rows
// with a different number of fields than the header, and files without data rows.
ParticleSet read_particles_csv(const std::string& path);
// Reads target points (columns x,y,z).
Points read_points_csv(const std::string& path);

// Writes a particle set in the input format (atomically: a complete file or none).
void write_particles_csv(const std::string& path, const ParticleSet& particles);
// Writes one row per target: position, velocity and, when field.has_gradient, the gradient.
void write_field_csv(const std::string& path, PointsView targets, const VelocityField& field);

}  // namespace vortex
