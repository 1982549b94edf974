#pragma once
// Refusing runs that cannot fit in memory before they start, instead of filling the machine.

#include <cstdint>
#include <string>

namespace vortex::cli {

// Bytes of memory available to this process now (MemAvailable of /proc/meminfo, else the
// physical memory); 0 when unknown.
std::uint64_t available_memory();

// Bytes of memory this process holds resident now (VmRSS of /proc/self/status); 0 when unknown.
std::uint64_t resident_memory();

// Throws std::runtime_error naming `what`, the estimated `bytes` and the memory available when the
// estimate exceeds it. Estimates in long double, so that sizes near 2^64 do not wrap.
void require_memory(const std::string& what, long double bytes);

// "12.3 GB", for messages.
std::string memory_text(long double bytes);

}  // namespace vortex::cli
