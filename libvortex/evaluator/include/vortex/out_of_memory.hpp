#pragma once
// Out of memory, said with what was too large: still a std::bad_alloc (code that catches that
// keeps working), with a message naming the stage and the sizes.

#include <new>
#include <string>
#include <utility>

namespace vortex {

class OutOfMemory : public std::bad_alloc {
 public:
  explicit OutOfMemory(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

}  // namespace vortex
