#include "vortex/gpu/buffer.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
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

std::atomic<std::size_t> held[2] = {};

std::atomic<std::size_t>& held_of(Memory kind) {
  return held[kind == Memory::Device ? 0 : 1];
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
  held_of(kind) += bytes;
  return p;
}

void release(Memory kind, void* p, std::size_t bytes) noexcept {
  if (!p) return;
  held_of(kind) -= bytes;
  if (kind == Memory::Device)
    cudaFree(p);
  else
    cudaFreeHost(p);
}

void copy_to_device(void* to, const void* from, std::size_t bytes) {
  VORTEX_CUDA_CHECK(cudaMemcpy(to, from, bytes, cudaMemcpyHostToDevice));
}

std::size_t held_bytes(Memory kind) noexcept {
  return held_of(kind).load();
}

}  // namespace vortex::gpu
