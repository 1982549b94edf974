#pragma once
// Every CUDA runtime call and kernel launch goes through check(): a failure becomes a
// std::runtime_error that names the call, the source location and CUDA's error string.

#include <cuda_runtime_api.h>

namespace vortex::gpu {

// Throws std::runtime_error("CUDA error in <what> at <file>:<line>: <name>: <description>")
// unless `status` is cudaSuccess.
void check(cudaError_t status, const char* what, const char* file, int line);

// Checks the launch of the kernel named `kernel` (configuration errors, earlier asynchronous
// faults) without waiting for it to finish.
void check_launch(const char* kernel, const char* file, int line);

}  // namespace vortex::gpu

#define VORTEX_CUDA_CHECK(call) ::vortex::gpu::check((call), #call, __FILE__, __LINE__)
#define VORTEX_CUDA_CHECK_LAUNCH(kernel) ::vortex::gpu::check_launch(kernel, __FILE__, __LINE__)
