#pragma once
// The regularized Biot-Savart pair kernel: velocity and velocity gradient induced at a target by
// one source particle, shared by the CPU loops and the CUDA kernels.
//
//   u_a       += F (Gamma x d)_a
//   du_a/dx_b += (F'/r) d_b (Gamma x d)_a + F [Gamma]x_ab,   d = x_target - x_source
//
// The 1/(4 pi) factor is applied once by the caller after summation.
//
// The kernel reads each source as a PairSource: its strength divided by sigma^3 and 1/sigma^2,
// made once per source, so that with the core's shape (f, h) of core_function.hpp
//   F Gamma = f Gamma/sigma^3,   (F'/r) Gamma = (h/sigma^2) Gamma/sigma^3
// and nothing per pair depends on the source alone.

#include <cmath>

#include "vortex/math/core_function.hpp"
#include "vortex/math/hd.hpp"

namespace vortex {

// Floating-point operations of one pair, counted as adds, multiplies, divides and square roots
// (exp/erf counted as one each), used by the benchmarks to report GFlop/s. These count the
// textbook formula, not the operations this implementation happens to need.
constexpr int kFlopsVelocityPair = 32;
constexpr int kFlopsVelocityGradientPair = 62;

// One source as the pair kernel reads it.
template <class T>
struct PairSource {
  T gx, gy, gz;  // strength / sigma^3
  T inv_sigma2;  // 1 / sigma^2
};

VORTEX_HD PairSource<double> pair_source(Core core, double gx, double gy, double gz, double sigma) {
  const double inv_sigma = kernel_inv_sigma(core, 1.0 / sigma);
  const double inv_sigma3 = inv_sigma * inv_sigma * inv_sigma;
  return {gx * inv_sigma3, gy * inv_sigma3, gz * inv_sigma3, inv_sigma * inv_sigma};
}

template <class T>
struct VelocityAccumulator {
  T u[3] = {T(0), T(0), T(0)};
};

// The gradient is du + [f_gamma]x: the pair loop sums the antisymmetric F [Gamma]x part as the
// vector sum of F Gamma (3 numbers instead of 6 matrix entries per pair) and fold_rotation adds it
// into du once per sum. Code that reads du calls fold_rotation first.
template <class T>
struct VelocityGradientAccumulator {
  T u[3] = {T(0), T(0), T(0)};
  T du[9] = {T(0), T(0), T(0), T(0), T(0), T(0), T(0), T(0), T(0)};  // du[3a+b] = du_a/dx_b
  T f_gamma[3] = {T(0), T(0), T(0)};
};

// du += [w]x, the matrix with ([w]x)_ab = -eps_abc w_c.
template <class T>
VORTEX_HD void add_cross_matrix(const T w[3], T du[9]) {
  du[1] -= w[2];
  du[2] += w[1];
  du[3] += w[2];
  du[5] -= w[0];
  du[6] -= w[1];
  du[7] += w[0];
}

template <class T>
VORTEX_HD void fold_rotation(VelocityGradientAccumulator<T>& acc) {
  add_cross_matrix(acc.f_gamma, acc.du);
  acc.f_gamma[0] = acc.f_gamma[1] = acc.f_gamma[2] = T(0);
}

// A source exactly at the target adds nothing. Where rounding alone puts a source on a target (a
// zero offset between distinct positions), the pair instead adds the core's limit F(0) there. The
// pair kernels take the rule at a zero offset as a policy (core_function.hpp), which core_shape
// applies only where a zero offset can occur (in its small-argument branch):
//  - SourceAtTarget (the GPU): the limit where the two positions' point_keys (point_key.hpp)
//    differ, nothing where they agree;
//  - DropAtZero (the CPU's vectorized loops): nothing at any zero offset; the CPU adds the
//    limits of the pairs that rounding made coincident afterwards (near/rounding_coincidences.cpp),
//    which costs its loops nothing per pair.
template <class T>
struct SourceAtTarget {
  T target_key, source_key;
  VORTEX_HD T operator()(T limit) const { return target_key != source_key ? limit : T(0); }
};

struct DropAtZero {
  template <class T>
  VORTEX_HD T operator()(T) const {
    return T(0);
  }
};

// The singular kernel has no limit at a zero offset: there the policy sees infinity, so that a
// pair that rounding made coincident makes the result non-finite, and the call is computed again
// in double (or the overflow reported), never returned.
template <class T, class AtZero>
VORTEX_HD T singular_pair_f(T r2, T f, AtZero at_zero) {
  return r2 > T(0) ? f : at_zero(T(INFINITY));
}

// The core's shape for a pair at squared offset r2, with the policy at a zero offset.
template <Core C, class T, class AtZero>
VORTEX_HD CoreShape<T> pair_shape(T r2, T inv_sigma2, AtZero at_zero) {
  if constexpr (C == Core::Singular) {
    CoreShape<T> k = core_shape<C>(r2 * inv_sigma2);
    k.f = singular_pair_f(r2, k.f, at_zero);
    return k;
  } else {
    return core_shape<C>(r2 * inv_sigma2, at_zero);
  }
}

// Velocity only. (dx,dy,dz) = target - source; (gx,gy,gz, inv_sigma2) a PairSource; at_zero a
// policy above. A regularized source at the target adds nothing whatever F is (Gamma x d = 0),
// so only the singular kernel applies the policy.
template <Core C, class T, class AtZero, class A>
VORTEX_HD void add_pair_velocity(T dx, T dy, T dz, T gx, T gy, T gz, T inv_sigma2, AtZero at_zero,
                                 A& acc) {
  const T r2 = dx * dx + dy * dy + dz * dz;
  T f = core_shape<C>(r2 * inv_sigma2).f;
  if constexpr (C == Core::Singular) f = singular_pair_f(r2, f, at_zero);
  acc.u[0] += f * (gy * dz - gz * dy);
  acc.u[1] += f * (gz * dx - gx * dz);
  acc.u[2] += f * (gx * dy - gy * dx);
}

// Velocity and the 9-component gradient (with f_gamma still to fold).
template <Core C, class T, class AtZero, class A>
VORTEX_HD void add_pair_velocity_gradient(T dx, T dy, T dz, T gx, T gy, T gz, T inv_sigma2,
                                          AtZero at_zero, A& acc) {
  const T r2 = dx * dx + dy * dy + dz * dz;
  const CoreShape<T> k = pair_shape<C>(r2, inv_sigma2, at_zero);
  const T f = k.f;
  const T h = k.h * inv_sigma2;
  const T cx = gy * dz - gz * dy;
  const T cy = gz * dx - gx * dz;
  const T cz = gx * dy - gy * dx;
  acc.u[0] += f * cx;
  acc.u[1] += f * cy;
  acc.u[2] += f * cz;
  const T hcx = h * cx, hcy = h * cy, hcz = h * cz;
  acc.du[0] += hcx * dx;
  acc.du[1] += hcx * dy;
  acc.du[2] += hcx * dz;
  acc.du[3] += hcy * dx;
  acc.du[4] += hcy * dy;
  acc.du[5] += hcy * dz;
  acc.du[6] += hcz * dx;
  acc.du[7] += hcz * dy;
  acc.du[8] += hcz * dz;
  acc.f_gamma[0] += f * gx;
  acc.f_gamma[1] += f * gy;
  acc.f_gamma[2] += f * gz;
}

}  // namespace vortex
