#pragma once
// The regularized Biot-Savart pair kernel: velocity and velocity gradient induced at a target by
// one source particle, shared by the CPU loops and the CUDA kernels.
//
//   u_a     += F (Gamma x d)_a
//   du_a/dx_b += (F'/r) d_b (Gamma x d)_a + F [Gamma]x_ab,   d = x_target - x_source
//
// The 1/(4 pi) factor is applied once by the caller after summation.

#include "vortex/core_function.hpp"
#include "vortex/hd.hpp"

namespace vortex {

// Floating-point operations of one pair, counted as adds, multiplies, divides and square roots
// (exp/erf counted as one each), used by the benchmarks to report GFlop/s.
constexpr int kFlopsVelocityPair = 32;
constexpr int kFlopsVelocityGradientPair = 62;

template <class T>
struct VelocityAccumulator {
  T u[3] = {T(0), T(0), T(0)};
};

template <class T>
struct VelocityGradientAccumulator {
  T u[3] = {T(0), T(0), T(0)};
  T du[9] = {T(0), T(0), T(0), T(0), T(0), T(0), T(0), T(0), T(0)};  // du[3a+b] = du_a/dx_b
};

// Velocity only. (dx,dy,dz) = target - source.
template <Core C, class T, class A>
VORTEX_HD void add_pair_velocity(T dx, T dy, T dz, T gx, T gy, T gz, T inv_sigma, A& acc) {
  const T r2 = dx * dx + dy * dy + dz * dz;
  const CoreFactors<T> k = core_factors<C>(r2, inv_sigma);
  const T F = r2 > T(0) ? k.F : T(0);
  acc.u[0] += F * (gy * dz - gz * dy);
  acc.u[1] += F * (gz * dx - gx * dz);
  acc.u[2] += F * (gx * dy - gy * dx);
}

// Velocity and the 9-component gradient. A source exactly at the target contributes nothing.
template <Core C, class T, class A>
VORTEX_HD void add_pair_velocity_gradient(T dx, T dy, T dz, T gx, T gy, T gz, T inv_sigma, A& acc) {
  const T r2 = dx * dx + dy * dy + dz * dz;
  const CoreFactors<T> k = core_factors<C>(r2, inv_sigma);
  const bool on = r2 > T(0);
  const T F = on ? k.F : T(0);
  const T G = on ? k.dF_over_r : T(0);
  const T cx = gy * dz - gz * dy;
  const T cy = gz * dx - gx * dz;
  const T cz = gx * dy - gy * dx;
  acc.u[0] += F * cx;
  acc.u[1] += F * cy;
  acc.u[2] += F * cz;
  const T gcx = G * cx, gcy = G * cy, gcz = G * cz;
  const T fgx = F * gx, fgy = F * gy, fgz = F * gz;
  acc.du[0] += gcx * dx;
  acc.du[1] += gcx * dy - fgz;
  acc.du[2] += gcx * dz + fgy;
  acc.du[3] += gcy * dx + fgz;
  acc.du[4] += gcy * dy;
  acc.du[5] += gcy * dz - fgx;
  acc.du[6] += gcz * dx - fgy;
  acc.du[7] += gcz * dy + fgx;
  acc.du[8] += gcz * dz;
}

}  // namespace vortex
