#include "vortex/gpu/check.hpp"

#include <cuda_runtime_api.h>

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

void check_launch(const char* kernel, const char* file, int line) {
  const cudaError_t status = cudaGetLastError();
  if (status == cudaSuccess) return;
  throw std::runtime_error(std::string("CUDA error in launch of ") + kernel + " at " + file + ":" +
                           std::to_string(line) + ": " + cudaGetErrorName(status) + ": " +
                           cudaGetErrorString(status));
}

}  // namespace vortex::gpu
