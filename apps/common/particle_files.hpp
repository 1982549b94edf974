#pragma once
// Particle and result files chosen by their extension: .csv or .vtp.

#include <string>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/particles.hpp"

namespace vortex::cli {

enum class FileFormat { Csv, Vtp };

// The format of a path by its extension (case-insensitive); throws std::invalid_argument naming
// the path for anything else. `role` ("sources", "output", ...) goes into the message.
FileFormat file_format(const std::string& path, const std::string& role);

// Checks, before any work, that `output` can be written: a known extension, a writable folder,
// not a folder itself, and not one of `inputs` (which it would replace) unless `force`. Throws
// std::invalid_argument or FileError naming the problem.
void check_output(const std::string& output, const std::vector<std::string>& inputs, bool force);

ParticleSet read_sources(const std::string& path);
Points read_targets(const std::string& path);
void write_particles(const std::string& path, const ParticleSet& particles);
// Writes the field at the targets. With `particles` (when the targets are the particles
// themselves) a .vtp output also carries their circulation and radius.
void write_results(const std::string& path, const ParticleSet* particles, PointsView targets,
                   const VelocityField& field);

}  // namespace vortex::cli
