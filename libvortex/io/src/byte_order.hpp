#pragma once
// Byte order of binary file data: the host's, and loads that swap when the file's differs.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

namespace vortex {

inline bool host_is_little_endian() {
  const std::uint16_t probe = 1;
  unsigned char first;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// A value of type T from its bytes, reversed first when `swap`.
template <class T>
T load(const unsigned char* bytes, bool swap) {
  unsigned char buffer[sizeof(T)];
  std::memcpy(buffer, bytes, sizeof(T));
  if (swap) {
    for (std::size_t k = 0; k < sizeof(T) / 2; ++k) std::swap(buffer[k], buffer[sizeof(T) - 1 - k]);
  }
  T value;
  std::memcpy(&value, buffer, sizeof(T));
  return value;
}

}  // namespace vortex
