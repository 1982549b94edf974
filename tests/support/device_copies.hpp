#pragma once
// Copies between host vectors and device memory for the GPU tests (CUDA runtime, checked), and a
// particle set's positions on the device.

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device_tree.hpp"
#include "vortex/particles.hpp"

namespace vortex::testing {

template <class T>
std::vector<T> download(const T* device, std::size_t n) {
  std::vector<T> host(n);
  if (n > 0)
    VORTEX_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// A buffer of at least one element, so that an empty vector still gives a valid pointer.
template <class T>
gpu::DeviceBuffer<T> upload(const std::vector<T>& host) {
  gpu::DeviceBuffer<T> device(std::max<std::size_t>(host.size(), 1));
  if (!host.empty())
    VORTEX_CUDA_CHECK(
        cudaMemcpy(device.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

// The positions and core radii of a particle set on the device, as the device tree reads them.
struct DevicePositions {
  gpu::DeviceBuffer<double> x, y, z, sigma;
  explicit DevicePositions(const ParticleSet& p)
      : x(upload(p.x)), y(upload(p.y)), z(upload(p.z)), sigma(upload(p.sigma)) {}
  gpu::DevicePoints points() const { return {x.data(), y.data(), z.data(), sigma.data()}; }
};

}  // namespace vortex::testing
