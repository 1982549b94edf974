#include "machine_info.hpp"

#include <ctime>
#include <fstream>
#include <sstream>
#include <thread>

#include "tables.hpp"

namespace vortex::cli {

namespace {

// The value after "key" and a colon on the first matching line of a /proc file.
std::string proc_field(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "" : line.substr(start);
  }
  return "";
}

}  // namespace

double load_average() {
  std::ifstream in("/proc/loadavg");
  double load = -1;
  if (!(in >> load)) return -1;
  return load;
}

MachineInfo MachineInfo::current() {
  MachineInfo info;
  info.cpu_model = proc_field("/proc/cpuinfo", "model name");
  if (info.cpu_model.empty()) info.cpu_model = "unknown";
  info.hardware_threads = std::thread::hardware_concurrency();
  std::istringstream mem(proc_field("/proc/meminfo", "MemTotal"));
  double kib = 0;
  if (mem >> kib) info.memory_gib = kib / (1024.0 * 1024.0);
  info.load_average_1min = load_average();
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  info.date_utc = date;
  return info;
}

std::string MachineInfo::describe() const {
  std::string text =
      format("%s, %u hardware threads, %.0f GiB", cpu_model.c_str(), hardware_threads, memory_gib);
  if (!gpu.empty()) text += ", GPU " + gpu;
  if (load_average_1min >= 0) text += format(", load average %.2f at start", load_average_1min);
  return text + ", " + date_utc;
}

void MachineInfo::write(JsonWriter& json) const {
  json.begin_object();
  json.field("cpu_model", cpu_model)
      .field("hardware_threads", static_cast<std::uint64_t>(hardware_threads))
      .field("memory_gib", memory_gib)
      .field("load_average_1min", load_average_1min)
      .field("date_utc", date_utc);
  if (gpu.empty()) {
    json.key("gpu").null();
  } else {
    json.field("gpu", gpu);
  }
  json.end();
}

}  // namespace vortex::cli
