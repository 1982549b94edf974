#pragma once
// ParaView data collections (.pvd): a time series of .vtp files that ParaView opens as one
// animated data set.
//
//   vortex::PvdWriter series("out/ring.pvd");
//   for (int step = 0; ...; ++step) {
//     std::string file = "out/ring-" + std::to_string(step) + ".vtp";
//     vortex::write_vtp(file, particles, &field);
//     series.add(t, file);  // rewrites out/ring.pvd, atomically, with every step so far
//   }

#include <string>
#include <vector>

#include "vortex/file_io.hpp"

namespace vortex {

struct PvdEntry {
  double time = 0;
  std::string file;  // as written in the collection: relative to the collection's folder
};

class PvdWriter {
 public:
  // Starts an empty collection at `path` (nothing is written until the first add).
  explicit PvdWriter(std::string path);

  // Appends a data set at `time` and rewrites the collection. `file` is a path as the caller sees
  // it (absolute or relative to the working folder); the collection stores it relative to its own
  // folder so that the series can be moved as a whole.
  void add(double time, const std::string& file);

  const std::string& path() const { return path_; }
  const std::vector<PvdEntry>& entries() const { return entries_; }

 private:
  std::string path_;
  std::vector<PvdEntry> entries_;
};

// The entries of a collection, in file order (files as written, relative to its folder).
std::vector<PvdEntry> read_pvd(const std::string& path);

}  // namespace vortex
