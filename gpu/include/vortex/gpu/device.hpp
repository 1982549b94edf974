#pragma once
// Device presence and the properties the launchers size themselves by.

#include <cstddef>
#include <string>

namespace vortex::gpu {

// Number of usable CUDA devices; 0 (never an exception) without a driver or a device.
int device_count() noexcept;

struct DeviceInfo {
  int id = 0;
  std::string name;
  int multiprocessors = 0;
  int compute_major = 0, compute_minor = 0;
  std::size_t global_memory = 0;
  std::size_t shared_per_block_optin = 0;  // largest dynamic shared memory a block may ask for
  std::size_t l2_bytes = 0;
};

// Makes device `index` the calling thread's current device (throws for an index out of range).
void use_device(int index);

// Properties of the current device (throws when there is none).
DeviceInfo current_device();

}  // namespace vortex::gpu
