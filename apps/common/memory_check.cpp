#include "memory_check.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace vortex::cli {

namespace {

struct Bound {
  std::uint64_t bytes = 0;  // 0: unknown
  std::string name;         // empty: the machine's memory
};

std::uint64_t machine_memory() {
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

// A field of /proc/self/status in bytes ("VmSize:"), 0 when absent.
std::uint64_t status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == field) {
      std::uint64_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
    status.ignore(1 << 16, '\n');
  }
  return 0;
}

// The first number in a file; false when it is absent or not a number ("max").
bool read_number(const std::string& path, std::uint64_t& value) {
  std::ifstream in(path);
  return static_cast<bool>(in >> value);
}

// What this process's cgroup (v2, else v1) leaves of its memory limit; 0 when there is none.
std::uint64_t cgroup_room() {
  std::string v2, v1;  // the cgroup's paths: "0::/path" and "N:memory:/path" lines
  {
    std::ifstream cgroup("/proc/self/cgroup");
    std::string line;
    while (std::getline(cgroup, line)) {
      if (line.rfind("0::", 0) == 0) v2 = line.substr(3);
      if (const auto at = line.find(":memory:"); at != std::string::npos) v1 = line.substr(at + 8);
    }
  }
  std::uint64_t limit = 0, used = 0;
  for (const std::string& dir : {"/sys/fs/cgroup" + v2, std::string("/sys/fs/cgroup")})
    if (read_number(dir + "/memory.max", limit) && read_number(dir + "/memory.current", used))
      return limit > used ? limit - used : 1;
  // v1 reports "no limit" as a number near 2^63.
  for (const std::string& dir :
       {"/sys/fs/cgroup/memory" + v1, std::string("/sys/fs/cgroup/memory")})
    if (read_number(dir + "/memory.limit_in_bytes", limit) && limit < (1ull << 60) &&
        read_number(dir + "/memory.usage_in_bytes", used))
      return limit > used ? limit - used : 1;
  return 0;
}

// What a resource limit leaves beyond `used`; 0 when there is none.
std::uint64_t rlimit_room(int resource, std::uint64_t used) {
  rlimit r{};
  if (getrlimit(resource, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 0;
  const auto limit = static_cast<std::uint64_t>(r.rlim_cur);
  return limit > used ? limit - used : 1;
}

Bound least_bound() {
  Bound best{machine_memory(), ""};
  const auto consider = [&best](std::uint64_t bytes, const char* name) {
    if (bytes > 0 && (best.bytes == 0 || bytes < best.bytes)) best = {bytes, name};
  };
  consider(cgroup_room(), "the cgroup's memory limit");
  consider(rlimit_room(RLIMIT_AS, status_bytes("VmSize:")), "the address-space limit (ulimit -v)");
  consider(rlimit_room(RLIMIT_DATA, status_bytes("VmData:")), "the data-segment limit (ulimit -d)");
  return best;
}

}  // namespace

std::uint64_t available_memory() {
  return least_bound().bytes;
}

std::string memory_limit_name() {
  return least_bound().name;
}

std::uint64_t resident_memory() {
  return status_bytes("VmRSS:");
}

std::string memory_text(long double bytes) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3Lg GB", bytes / 1e9L);
  return buffer;
}

void require_memory(const std::string& what, long double bytes) {
  const Bound available = least_bound();
  if (available.bytes > 0 && bytes > static_cast<long double>(available.bytes)) {
    throw std::runtime_error(what + " needs about " + memory_text(bytes) +
                             " of memory; this machine has " + memory_text(available.bytes) +
                             " available" +
                             (available.name.empty() ? "" : " under " + available.name));
  }
}

}  // namespace vortex::cli
