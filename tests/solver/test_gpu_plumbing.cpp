// CUDA plumbing: errors become exceptions that name the call, buffers only grow, and the Solver
// reports the backend it chose. Device-free checks run everywhere; the rest skip without a GPU.

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

TEST(GpuCheck, ErrorNamesCallLocationAndCudaMessage) {
  try {
    gpu::check(cudaErrorInvalidValue, "cudaMemcpy(dst, src, n)", "file.cu", 42);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("cudaMemcpy(dst, src, n)"), std::string::npos) << m;
    EXPECT_NE(m.find("file.cu:42"), std::string::npos) << m;
    EXPECT_NE(m.find("cudaErrorInvalidValue"), std::string::npos) << m;
    EXPECT_NE(m.find(cudaGetErrorString(cudaErrorInvalidValue)), std::string::npos) << m;
  }
  EXPECT_NO_THROW(gpu::check(cudaSuccess, "nothing", "file.cu", 1));
}

TEST(GpuCheck, MacroNamesTheExpression) {
  try {
    VORTEX_CUDA_CHECK(cudaErrorMemoryAllocation);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cudaErrorMemoryAllocation"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("test_gpu_plumbing.cpp"), std::string::npos);
  }
}

TEST(GpuDevice, CountNeverThrows) {
  EXPECT_GE(gpu::device_count(), 0);
}

TEST(GpuDevice, SolverAutoPicksCudaWhenPresent) {
  EXPECT_EQ(cuda_available(), gpu::device_count() > 0);
  EXPECT_EQ(resolve_backend(Backend::Auto), cuda_available() ? Backend::Cuda : Backend::Cpu);
  if (!cuda_available()) {
    EXPECT_THROW(resolve_backend(Backend::Cuda), std::runtime_error);
    return;
  }
  ParticleSet p;
  for (int i = 0; i < 100; ++i) p.push_back(0.01 * i, 0.02 * i * i, 0.1, 0.1, 0, 0.01, 0.05);
  SolverOptions o;
  o.method = Method::Direct;
  const VelocityField f = Solver(o).evaluate(p, true);
  EXPECT_EQ(f.stats.backend, "cuda");
  EXPECT_EQ(f.stats.precision, "float");
  EXPECT_EQ(f.stats.device, gpu::current_device().name);
}

TEST(GpuBuffer, GrowsOnlyAndFailsClearly) {
  if (gpu::device_count() == 0) GTEST_SKIP() << "no CUDA device";
  gpu::DeviceBuffer<float> b;
  EXPECT_EQ(b.data(), nullptr);
  float* p = b.reserve(1000);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(b.reserve(10), p);  // smaller requests keep the allocation
  EXPECT_GE(b.capacity(), 1000u);
  b.reserve(100000);
  EXPECT_GE(b.capacity(), 100000u);
  gpu::PinnedBuffer<double> h(10);
  EXPECT_NE(h.data(), nullptr);
  // An impossible allocation names the call that failed and the memory it needed.
  gpu::DeviceBuffer<char> huge;
  try {
    huge.reserve(std::size_t(1) << 50);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cudaMalloc"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("out of device memory"), std::string::npos) << e.what();
    // The bytes asked for (the buffer rounds 2^50 up), and what the device has free.
    const std::string m = e.what();
    const std::size_t at = m.find("cudaMalloc of ");
    ASSERT_NE(at, std::string::npos) << m;
    EXPECT_GE(std::stod(m.substr(at + 14)), 1125899.9) << m;
    EXPECT_NE(m.find(" GB free"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace vortex
