#include "vortex/gpu/buffer.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "vortex/gpu/check.hpp"

namespace vortex::gpu {

namespace {

std::string gigabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

}  // namespace

void* allocate(Memory kind, std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  const cudaError_t e = kind == Memory::Device ? cudaMalloc(&p, bytes) : cudaMallocHost(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // clear it: the device stays usable
    std::size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    throw std::runtime_error(
        kind == Memory::Device
            ? "GPU: out of device memory: cudaMalloc of " + gigabytes(bytes) + " with " +
                  gigabytes(free) + " of " + gigabytes(total) + " free; evaluate fewer particles"
            : "GPU: out of pinned host memory: cudaMallocHost of " + gigabytes(bytes));
  }
  check(e, kind == Memory::Device ? "cudaMalloc" : "cudaMallocHost", __FILE__, __LINE__);
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
