#pragma once
// Particles and results that stay in GPU memory, for solvers that keep their particles on the
// device between time steps (Solver::evaluate_on_device). Every pointer is device memory of the
// current CUDA device (cudaMalloc, or managed memory), n doubles each; nothing of them is copied
// to the host.

#include <cstddef>

namespace vortex {

struct DeviceSources {
  const double *x = nullptr, *y = nullptr, *z = nullptr;     // positions
  const double *gx = nullptr, *gy = nullptr, *gz = nullptr;  // vector circulation Gamma
  const double* sigma = nullptr;                             // core radii
  std::size_t n = 0;
};

struct DeviceTargets {
  const double *x = nullptr, *y = nullptr, *z = nullptr;
  std::size_t n = 0;
};

// Where the results go, one array of n doubles per component: u[a] = u_a, du[3 a + b] = du_a/dx_b.
// du is only written (and only needs to be set) with the gradient.
struct DeviceResults {
  double* u[3] = {nullptr, nullptr, nullptr};
  double* du[9] = {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
};

}  // namespace vortex
