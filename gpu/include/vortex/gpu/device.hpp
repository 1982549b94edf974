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
  double clock_hz = 0;  // the multiprocessors' top clock
  int fp32_lanes = 0;   // FP32 fused multiply-adds a multiprocessor issues a cycle
  // FP32 peak, flop/s: every lane's fused multiply-add (two flops) each cycle at the top clock.
  double fp32_peak() const { return 2.0 * fp32_lanes * multiprocessors * clock_hz; }
};

// Makes device `index` the calling thread's current device (throws for an index out of range).
void use_device(int index);

// Properties of the current device (throws when there is none).
DeviceInfo current_device();

}  // namespace vortex::gpu
