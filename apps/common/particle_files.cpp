#include "particle_files.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

#include "vortex/csv.hpp"
#include "vortex/file_io.hpp"
#include "vortex/vtp.hpp"

namespace vortex::cli {

FileFormat file_format(const std::string& path, const std::string& role) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".csv") return FileFormat::Csv;
  if (extension == ".vtp") return FileFormat::Vtp;
  const bool input = role == "sources" || role == "targets";
  if (extension == ".vtu" && input) return FileFormat::Vtp;  // read as a point cloud
  throw std::invalid_argument(role + " file '" + path +
                              "': unknown extension (expected .csv or .vtp" +
                              (input ? ", or .vtu)" : ")"));
}

void check_output(const std::string& output, const std::vector<std::string>& inputs, bool force) {
  file_format(output, "output");
  std::error_code ec;
  if (std::filesystem::is_directory(output, ec)) {
    throw std::invalid_argument("output file '" + output + "' is a folder");
  }
  for (const std::string& input : inputs) {
    if (!force && !input.empty() && std::filesystem::equivalent(output, input, ec)) {
      throw std::invalid_argument("output file '" + output + "' is the input file '" + input +
                                  "' and would replace it (--force to allow that)");
    }
  }
  AtomicFile probe(output);  // creates and removes a temporary file in the output's folder
}

ParticleSet read_sources(const std::string& path) {
  return file_format(path, "sources") == FileFormat::Csv ? read_particles_csv(path)
                                                         : read_particles_vtp(path);
}

Points read_targets(const std::string& path) {
  return file_format(path, "targets") == FileFormat::Csv ? read_points_csv(path)
                                                         : read_points_vtp(path);
}

void write_particles(const std::string& path, const ParticleSet& particles) {
  if (file_format(path, "particle") == FileFormat::Csv) {
    write_particles_csv(path, particles);
  } else {
    write_vtp(path, particles);
  }
}

void write_results(const std::string& path, const ParticleSet* particles, PointsView targets,
                   const VelocityField& field) {
  if (file_format(path, "output") == FileFormat::Csv) {
    write_field_csv(path, targets, field);
  } else if (particles) {
    write_vtp(path, *particles, &field);
  } else {
    write_vtp(path, targets, &field);
  }
}

}  // namespace vortex::cli
