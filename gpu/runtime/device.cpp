#include "vortex/gpu/device.hpp"

#include <cuda_runtime_api.h>

#include "vortex/gpu/check.hpp"

namespace vortex::gpu {

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

void use_device(int index) {
  VORTEX_CUDA_CHECK(cudaSetDevice(index));
}

DeviceInfo current_device() {
  DeviceInfo info;
  VORTEX_CUDA_CHECK(cudaGetDevice(&info.id));
  cudaDeviceProp p{};
  VORTEX_CUDA_CHECK(cudaGetDeviceProperties(&p, info.id));
  info.name = p.name;
  info.multiprocessors = p.multiProcessorCount;
  info.compute_major = p.major;
  info.compute_minor = p.minor;
  info.global_memory = p.totalGlobalMem;
  info.shared_per_block_optin = p.sharedMemPerBlockOptin;
  info.l2_bytes = p.l2CacheSize;
  int khz = 0;
  VORTEX_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, info.id));
  info.clock_hz = 1e3 * khz;
  // 128 FP32 lanes a multiprocessor on compute capability 5.x, 6.1/6.2, 8.6 and later, 64 on 6.0,
  // 7.x and 8.0 (the CUDA programming guide's arithmetic throughput table).
  const bool wide = p.major >= 9 || p.major == 5 || (p.major == 8 && p.minor >= 6) ||
                    (p.major == 6 && p.minor >= 1);
  info.fp32_lanes = wide ? 128 : 64;
  return info;
}

}  // namespace vortex::gpu
