#pragma once
// Refusing runs that cannot fit in memory before they start, instead of filling the machine.

#include <cstdint>
#include <string>

namespace vortex::cli {

// Bytes of memory available to this process now: the least of MemAvailable of /proc/meminfo (else
// the physical memory), what its cgroup's memory limit leaves, and what its address-space and
// data-segment limits (ulimit -v, ulimit -d) leave; 0 when unknown.
std::uint64_t available_memory();

// Which of these bounds available_memory() now: "" for the machine's memory, else the limit, e.g.
// "the address-space limit (ulimit -v)".
std::string memory_limit_name();

// Bytes of memory this process holds resident now (VmRSS of /proc/self/status); 0 when unknown.
std::uint64_t resident_memory();

// Throws std::runtime_error naming `what`, the estimated `bytes` and the memory available when the
// estimate exceeds it. Estimates in long double, so that sizes near 2^64 do not wrap.
void require_memory(const std::string& what, long double bytes);

// "12.3 GB", for messages.
std::string memory_text(long double bytes);

}  // namespace vortex::cli
