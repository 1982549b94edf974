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
  return info;
}

}  // namespace vortex::gpu
