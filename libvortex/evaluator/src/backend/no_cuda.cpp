// The CUDA backend's entry points in a build without CUDA.

#include <stdexcept>

#include "backend/backend.hpp"

namespace vortex::detail {

void require_cuda() {
  throw std::runtime_error("backend 'cuda' was requested but this build has no CUDA support");
}

std::unique_ptr<DeviceBackend> make_cuda_backend() {
  require_cuda();
  return nullptr;
}

int use_cuda_device(int) {
  return -1;
}

bool cuda_device_present() {
  return false;
}

}  // namespace vortex::detail
