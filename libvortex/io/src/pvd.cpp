#include "vortex/pvd.hpp"

#include <charconv>
#include <filesystem>

#include "xml_tags.hpp"

namespace vortex {

namespace {

std::string format_time(double time) {
  char buffer[32];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, time, std::chars_format::general, 17);
  return std::string(buffer, result.ptr);
}

}  // namespace

PvdWriter::PvdWriter(std::string path) : path_(std::move(path)) {}

void PvdWriter::add(double time, const std::string& file) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::absolute(fs::path(path_)).parent_path();
  const fs::path relative =
      fs::absolute(fs::path(file)).lexically_normal().lexically_relative(folder.lexically_normal());
  entries_.push_back({time, relative.empty() ? file : relative.generic_string()});

  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "<Collection>\n";
  for (const auto& entry : entries_) {
    xml += "<DataSet timestep=\"" + format_time(entry.time) + "\" group=\"\" part=\"0\" file=\"" +
           xml::escape(entry.file) + "\"/>\n";
  }
  xml += "</Collection>\n</VTKFile>\n";
  AtomicFile out(path_);
  out.write(xml);
  out.commit();
}

std::vector<PvdEntry> read_pvd(const std::string& path) {
  const std::string text = read_file(path);
  xml::TagScanner scanner(text, text.size(), path);
  xml::Tag tag;
  std::vector<PvdEntry> entries;
  bool collection = false;
  while (scanner.next(tag)) {
    if (tag.kind == xml::Tag::Kind::End) continue;
    if (tag.name == "VTKFile") {
      const auto* type = tag.attribute("type");
      if (!type || *type != "Collection") {
        throw FileError(scanner.where(tag.begin) + "not a collection file (VTKFile type=\"" +
                        (type ? *type : "") + "\")");
      }
      collection = true;
    } else if (tag.name == "DataSet") {
      const auto* file = tag.attribute("file");
      if (!file) throw FileError(scanner.where(tag.begin) + "DataSet has no file attribute");
      PvdEntry entry;
      entry.file = *file;
      if (const auto* step = tag.attribute("timestep")) {
        const auto [end, ec] =
            std::from_chars(step->data(), step->data() + step->size(), entry.time);
        if (ec != std::errc() || end != step->data() + step->size()) {
          throw FileError(scanner.where(tag.begin) + "timestep \"" + *step + "\" is not a number");
        }
      }
      entries.push_back(std::move(entry));
    }
  }
  if (!collection) throw FileError(path + ": not a VTK collection file (no <VTKFile>)");
  return entries;
}

}  // namespace vortex
