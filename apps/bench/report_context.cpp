#include "report_context.hpp"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "tables.hpp"
#include "vortex/file_io.hpp"
#include "vortex/solver.hpp"

namespace vortex::cli {

std::string ReportContext::path(const std::string& name) const {
  return (std::filesystem::path(out_dir) / name).string();
}

void ReportContext::write_file(const std::string& name, const std::string& text) const {
  AtomicFile file(path(name));
  file.write(text);
  file.commit();
  std::printf("wrote %s\n", path(name).c_str());
}

void write_tree_options(JsonWriter& json, const TreeOptions& t) {
  json.begin_object(true)
      .field("order", t.order)
      .field("theta", t.theta)
      .field("kappa", t.kappa)
      .field("target_bucket", t.target_bucket)
      .field("source_bucket", t.source_bucket)
      .field("arity", t.arity)
      .end();
}

void ReportContext::write_provenance(JsonWriter& json) const {
  json.field("case", case_name)
      .field("seed", seed)
      .field("core", to_string(base.core))
      .field("gradient", gradient)
      .field("sample", static_cast<std::uint64_t>(sample))
      .field("repeat", repeat)
      .field("threads", base.threads);
  json.key("tree_options_given");
  write_tree_options(json, base.tree);
  json.field("command", command).field("commit", commit.empty() ? "unknown" : commit);
  json.key("machine");
  machine.write(json);
}

std::string ReportContext::describe() const {
  // The options as they apply on each backend present (0 given = picked for the tolerance and
  // the sources' layout: shown for a uniform set; each result lists its own).
  std::string tree = "tree options on the CPU (for a uniform set): " +
                     describe_tree_options(
                         resolve_tree_options(base.tree, base.core, Backend::Cpu, base.tolerance));
  if (cuda_available()) {
    tree += "; on CUDA: " + describe_tree_options(resolve_tree_options(
                                base.tree, base.core, Backend::Cuda, base.tolerance));
  }
  return format(
      "case %s, seed %llu, core %s, %s; threads %d (0 = all)\n%s\n"
      "times: median of %d calls; errors against a double-precision direct sum at %zu sampled "
      "targets\n"
      "machine: %s\ncommit: %s\ncommand: %s\n",
      case_name.c_str(), static_cast<unsigned long long>(seed), to_string(base.core).c_str(),
      gradient ? "velocity and 9-component gradient" : "velocity only", base.threads, tree.c_str(),
      repeat, sample, machine.describe().c_str(), commit.empty() ? "unknown" : commit.c_str(),
      command.c_str());
}

void make_directories(const std::string& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error || !std::filesystem::is_directory(path)) {
    throw std::runtime_error("cannot create the output folder '" + path +
                             "': " + (error ? error.message() : "not a folder"));
  }
}

}  // namespace vortex::cli
