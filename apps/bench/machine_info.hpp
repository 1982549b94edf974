#pragma once
// What a measurement ran on, recorded next to the timings: CPU model, hardware threads, memory,
// the load average (other work on the machine slows CPU timings), and the UTC date and time.

#include <string>

#include "json_writer.hpp"

namespace vortex::cli {

struct MachineInfo {
  std::string cpu_model;  // "model name" of /proc/cpuinfo, or "unknown"
  unsigned hardware_threads = 0;
  double memory_gib = 0;          // MemTotal of /proc/meminfo
  double load_average_1min = -1;  // -1 when /proc/loadavg cannot be read
  std::string date_utc;           // ISO 8601, e.g. 2026-11-21T10:52:18Z
  std::string gpu;                // device name of a CUDA run, when there was one

  static MachineInfo current();
  // A one-line description for text tables.
  std::string describe() const;
  void write(JsonWriter& json) const;  // as an object
};

// The 1-minute load average now (-1 when unknown).
double load_average();

}  // namespace vortex::cli
