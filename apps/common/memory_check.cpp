#include "memory_check.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace vortex::cli {

std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit) {
    if (key == "MemAvailable:") return kib * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * page : 0;
}

std::uint64_t resident_memory() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      std::uint64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(1 << 16, '\n');
  }
  return 0;
}

std::string memory_text(long double bytes) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3Lg GB", bytes / 1e9L);
  return buffer;
}

void require_memory(const std::string& what, long double bytes) {
  const std::uint64_t available = available_memory();
  if (available > 0 && bytes > static_cast<long double>(available)) {
    throw std::runtime_error(what + " needs about " + memory_text(bytes) +
                             " of memory; this machine has " + memory_text(available) +
                             " available");
  }
}

}  // namespace vortex::cli
