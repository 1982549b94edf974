#include "vortex/gpu/buffer.hpp"

#include <cuda_runtime_api.h>

#include "vortex/gpu/check.hpp"

namespace vortex::gpu {

void* allocate(Memory kind, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  if (kind == Memory::Device)
    VORTEX_CUDA_CHECK(cudaMalloc(&p, bytes));
  else
    VORTEX_CUDA_CHECK(cudaMallocHost(&p, bytes));
  return p;
}

void release(Memory kind, void* p) noexcept {
  if (!p) return;
  if (kind == Memory::Device)
    cudaFree(p);
  else
    cudaFreeHost(p);
}

}  // namespace vortex::gpu
