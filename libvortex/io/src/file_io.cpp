#include "vortex/file_io.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>

namespace vortex {

namespace {

std::string system_reason() {
  return std::strerror(errno);
}

constexpr std::size_t kBufferBytes = 1 << 20;

// Temporary files being written, removed by SIGINT and SIGTERM before the process dies with the
// signal: an interrupted write leaves nothing behind. The table is read by the signal handler, so
// it is a fixed array of atomic pointers (to each AtomicFile's own path string).
constexpr int kTempSlots = 64;
std::atomic<const char*> g_temp_paths[kTempSlots];
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM};
struct sigaction g_previous[2];

extern "C" void remove_temp_files_on_signal(int signal) {
  for (auto& slot : g_temp_paths) {
    if (const char* path = slot.load()) ::unlink(path);
  }
  const int k = signal == SIGINT ? 0 : 1;
  ::sigaction(signal, &g_previous[k], nullptr);
  ::raise(signal);
}

// Installed once, and only where the program keeps the default action (it may handle the
// signals itself).
void install_cleanup_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int k = 0; k < 2; ++k) {
      struct sigaction current {};
      if (::sigaction(kCleanupSignals[k], nullptr, &current) != 0) continue;
      if (current.sa_handler != SIG_DFL) continue;
      g_previous[k] = current;
      struct sigaction cleanup {};
      cleanup.sa_handler = remove_temp_files_on_signal;
      sigemptyset(&cleanup.sa_mask);
      ::sigaction(kCleanupSignals[k], &cleanup, nullptr);
    }
  });
}

// With more files open at once than slots, the extra ones are not removed on a signal.
void register_temp_path(const char* path) {
  install_cleanup_handlers();
  for (auto& slot : g_temp_paths) {
    const char* empty = nullptr;
    if (slot.compare_exchange_strong(empty, path)) return;
  }
}

void unregister_temp_path(const char* path) {
  for (auto& slot : g_temp_paths) {
    const char* expected = path;
    if (slot.compare_exchange_strong(expected, nullptr)) return;
  }
}

}  // namespace

std::string read_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw FileError(path + ": cannot read: is a directory");
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw FileError(path + ": cannot open: " + system_reason());
  std::string content;
  char chunk[1 << 16];
  std::size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) content.append(chunk, got);
  const bool failed = std::ferror(f);
  std::fclose(f);
  if (failed) throw FileError(path + ": cannot read: " + system_reason());
  return content;
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path target(path_);
  if (target.filename().empty()) throw FileError(path_ + ": cannot write: not a file name");
  // A hidden name in the same folder, so that the final rename stays on one file system.
  const std::string name = "." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) +
                           "-" + std::to_string(counter++);
  temp_path_ = (target.parent_path() / name).string();
  file_ = std::fopen(temp_path_.c_str(), "wbx");
  if (!file_) throw FileError(path_ + ": cannot write: " + system_reason());
  register_temp_path(temp_path_.c_str());
  buffer_.reserve(kBufferBytes);
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  if (file_) std::fclose(file_);
  std::remove(temp_path_.c_str());
  unregister_temp_path(temp_path_.c_str());
}

void AtomicFile::flush_buffer() {
  if (buffer_.empty()) return;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    throw FileError(path_ + ": cannot write: " + system_reason());
  }
  buffer_.clear();
}

void AtomicFile::write(const void* data, std::size_t bytes) {
  if (committed_) throw std::logic_error("AtomicFile::write after commit");
  if (buffer_.size() + bytes > kBufferBytes) flush_buffer();
  if (bytes >= kBufferBytes) {
    if (std::fwrite(data, 1, bytes, file_) != bytes) {
      throw FileError(path_ + ": cannot write: " + system_reason());
    }
    return;
  }
  buffer_.append(static_cast<const char*>(data), bytes);
}

void AtomicFile::commit() {
  if (committed_) return;
  flush_buffer();
  const bool flushed = std::fflush(file_) == 0;
  const int close_status = std::fclose(file_);
  file_ = nullptr;
  if (!flushed || close_status != 0) {
    throw FileError(path_ + ": cannot write: " + system_reason());
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    throw FileError(path_ + ": cannot write: " + system_reason());
  }
  unregister_temp_path(temp_path_.c_str());
  committed_ = true;
}

}  // namespace vortex
