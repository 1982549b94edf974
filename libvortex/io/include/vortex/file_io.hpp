#pragma once
// Safe file access shared by the readers and writers: errors that name the file, whole-file reads,
// and writes that never leave a half-written file behind.

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace vortex {

// An unreadable, unwritable, malformed or invalid file. The message names the file and, where it
// applies, the line and column, e.g. `particles.csv:12: column 'sigma': "abc" is not a number`.
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The whole content of a file (binary). Throws FileError when it cannot be read.
std::string read_file(const std::string& path);

// A file written under a temporary name in the same folder and renamed onto `path` by commit(), so
// that readers never see it half-written. If commit() is not reached (an exception, an early
// return), the destructor removes the temporary file and `path` is left untouched; so does SIGINT
// or SIGTERM (where the program keeps their default action) before the process ends.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);  // throws FileError when the folder is not writable
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, std::size_t bytes);
  void write(std::string_view text) { write(text.data(), text.size()); }
  // Flushes, closes and renames onto the final path; throws FileError on any failure.
  void commit();

  const std::string& path() const { return path_; }

 private:
  void flush_buffer();

  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
  bool committed_ = false;
};

}  // namespace vortex
