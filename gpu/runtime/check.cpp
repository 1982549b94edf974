#include "vortex/gpu/check.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace vortex::gpu {

void check(cudaError_t status, const char* what, const char* file, int line) {
  if (status == cudaSuccess) return;
  // Clear a non-sticky error so that the next call does not report it again.
  cudaGetLastError();
  throw std::runtime_error(std::string("CUDA error in ") + what + " at " + file + ":" +
                           std::to_string(line) + ": " + cudaGetErrorName(status) + ": " +
                           cudaGetErrorString(status));
}

namespace {

// VORTEX_CUDA_SYNC_LAUNCHES=1 waits for every kernel where it is launched, so that a fault inside
// a kernel is reported with that kernel's name (slow: for finding faults only).
bool sync_launches() {
  static const bool on = [] {
    const char* v = std::getenv("VORTEX_CUDA_SYNC_LAUNCHES");
    return v != nullptr && v[0] != '\0' && v[0] != '0';
  }();
  return on;
}

}  // namespace

void check_launch(const char* kernel, const char* file, int line) {
  cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess && sync_launches()) status = cudaDeviceSynchronize();
  if (status == cudaSuccess) return;
  throw std::runtime_error(std::string("CUDA error in launch of ") + kernel + " at " + file + ":" +
                           std::to_string(line) + ": " + cudaGetErrorName(status) + ": " +
                           cudaGetErrorString(status));
}

}  // namespace vortex::gpu
