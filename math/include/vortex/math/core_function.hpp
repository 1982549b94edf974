#pragma once
// Regularization cores of the vortex particles.
//
// A core is described by q(rho), the fraction of the particle's vorticity inside radius rho =
// r/sigma. The Biot-Savart pair kernel needs F(r) = q(rho)/r^3 and F'(r)/r. Each core is written
// once here as its dimensionless shape, f(rho) = q/rho^3 and h(rho) = f'(rho)/rho, so that
//   F = f / sigma^3,   F'/r = h / sigma^5,
// finite and accurate down to rho = 0 (small arguments use series). Host and CUDA code share these
// functions.

#include <cmath>
#include <type_traits>

#include "vortex/math/core_kind.hpp"
#include "vortex/math/hd.hpp"

namespace vortex {

// f(rho) and h(rho) = f'(rho)/rho of a core at rho^2.
template <class T>
struct CoreShape {
  T f;
  T h;
};

// F(r) and F'(r)/r of one source particle at squared distance r2.
template <class T>
struct CoreFactors {
  T F;
  T dF_over_r;
};

// What a shape's f becomes at rho = 0, from the core's limit there: kept (KeepAtZero) unless the
// caller passes a policy of its own (the pair kernel drops a source at its own target). Applied
// only where rho = 0 can occur: inside the small-argument branch, or behind a warp vote.
struct KeepAtZero {
  template <class T>
  VORTEX_HD T operator()(T limit) const {
    return limit;
  }
};

namespace detail {
using std::erf;
using std::exp;
using std::sqrt;

// f, or the policy's value where rho = 0 (the default policy compiles to f itself).
template <class T, class AtZero>
VORTEX_HD T at_zero_where(T rho2, T f, AtZero at_zero) {
  if constexpr (std::is_same_v<AtZero, KeepAtZero>)
    return f;
  else
    return rho2 > T(0) ? f : at_zero(f);
}

// exp(-x), faded to exactly 0 between x = 49 and 50. Next to the 1/rho^3 terms it meets,
// e^-49 < 6e-22 is below double rounding, and so is e^-x beyond; a clamped exponential would not
// be: it would be added in full once 1/rho^3 falls below it (at rho ~ 1e7). Clamping the argument
// keeps vector exp off its slow path (as would any select on its result, measured 2.5 times
// slower); the fade is a min and a max.
template <class T>
VORTEX_HD T exp_minus_below_50(T x) {
  const T fade = T(50) - x;
  return exp(-(x < T(50) ? x : T(50))) * (fade < T(0) ? T(0) : (fade > T(1) ? T(1) : fade));
}

// Exponential core, q = 1 - exp(-rho^3). With s = rho^3:
//   f = (1 - e^-s)/s,   h = 3 (e^-s - f)/rho^2 = 3 rho G(s),   G(s) = (e^-s - f)/s.
// Both f and G are evaluated by Taylor series below s = 1/8, where the direct forms cancel.
// Above, h is formed as 3 (e^-s - f) (rho/s): G ~ 1/rho^6 itself would underflow in float from
// rho ~ 2e6, where h ~ 1/rho^5 is still representable.
template <class T, class AtZero = KeepAtZero>
VORTEX_HD CoreShape<T> exponential_shape(T rho2, AtZero at_zero = {}) {
  const T rho = sqrt(rho2);
  const T s = rho2 * rho;
  const T e = exp_minus_below_50(s);
  const bool small = s < T(0.125);
  const T inv_s = T(1) / (small ? T(1) : s);
  T f = (T(1) - e) * inv_s;
  T h = T(3) * (e - f) * (rho * inv_s);
  if (any_in_warp(small)) {
    // Series: f = sum_k (-s)^k/(k+1)!,  G = sum_{k>=1} (-1)^k k s^(k-1)/(k+1)!.
    const T f_series =
        T(1) -
        s * (T(1) / 2 -
             s * (T(1) / 6 -
                  s * (T(1) / 24 - s * (T(1) / 120 -
                                        s * (T(1) / 720 - s * (T(1) / 5040 - s * (T(1) / 40320 -
                                                                                  s / 362880)))))));
    const T g_series =
        -T(1) / 2 +
        s * (T(2) / 6 -
             s * (T(3) / 24 -
                  s * (T(4) / 120 -
                       s * (T(5) / 720 -
                            s * (T(6) / 5040 - s * (T(7) / 40320 - s * (T(8) / 362880)))))));
    if constexpr (std::is_same_v<AtZero, KeepAtZero>)
      f = small ? f_series : f;
    else
      f = small ? at_zero_where(rho2, f_series, at_zero) : f;
    h = small ? T(3) * rho * g_series : h;
  }
  return {f, h};
}

// Gaussian core, q = erf(rho/sqrt2) - sqrt(2/pi) rho exp(-rho^2/2), vorticity ~ exp(-rho^2/2).
//   f = q/rho^3,  h = (sqrt(2/pi) exp(-rho^2/2) - 3 f)/rho^2.
// With x = rho^2/2 the series are f = c sum (-x)^k/(k!(2k+3)), h = -c sum (-x)^k/(k!(2k+5)).
template <class T, class AtZero = KeepAtZero>
VORTEX_HD CoreShape<T> gaussian_shape(T rho2, AtZero at_zero = {}) {
  const T c = T(0.79788456080286535588);  // sqrt(2/pi)
  const T rho = sqrt(rho2);
  const T x = rho2 / 2;
  const T e = exp_minus_below_50(x);
  const bool small = rho2 < T(0.5);
  const T rho_safe = small ? T(1) : rho;
  const T rho2_safe = rho_safe * rho_safe;
  const T q = T(erf(rho_safe * T(0.70710678118654752440))) - c * rho_safe * e;
  T f = q / (rho2_safe * rho_safe);
  T h = (c * e - T(3) * f) / rho2_safe;
  if (any_in_warp(small)) {
    // Horner-free sum; 1/k! is folded into the recurrence term_k = term_{k-1} (-x)/k.
    T term = T(1);
    T fs = T(1) / 3, hs = T(1) / 5;
    for (int k = 1; k <= 12; ++k) {
      term *= -x / T(k);
      fs += term / T(2 * k + 3);
      hs += term / T(2 * k + 5);
    }
    if constexpr (std::is_same_v<AtZero, KeepAtZero>)
      f = small ? c * fs : f;
    else
      f = small ? at_zero_where(rho2, c * fs, at_zero) : f;
    h = small ? -c * hs : h;
  }
  return {f, h};
}

// Rosenhead-Moore (Plummer) core, q = rho^3/(rho^2+1)^(3/2): f = (rho^2+1)^(-3/2), h =
// -3(rho^2+1)^(-5/2).
// The policy at rho = 0 for the cores without a small-argument branch, behind a warp vote.
template <class T, class AtZero>
VORTEX_HD T at_zero_of(T rho2, T f, AtZero at_zero) {
  if constexpr (!std::is_same_v<AtZero, KeepAtZero>)
    if (any_in_warp(!(rho2 > T(0)))) f = at_zero_where(rho2, f, at_zero);
  return f;
}

template <class T, class AtZero = KeepAtZero>
VORTEX_HD CoreShape<T> rosenhead_moore_shape(T rho2, AtZero at_zero = {}) {
  const T a = rho2 + T(1);
  const T inv_a = T(1) / a;
  const T f = inv_a / sqrt(a);
  return {at_zero_of(rho2, f, at_zero), T(-3) * f * inv_a};
}

// Winckelmans-Leonard core, q = rho^3 (rho^2 + 5/2)/(rho^2+1)^(5/2):
//   f = (rho^2 + 5/2)(rho^2+1)^(-5/2),  h = -(3 rho^2 + 21/2)(rho^2+1)^(-7/2).
template <class T, class AtZero = KeepAtZero>
VORTEX_HD CoreShape<T> winckelmans_leonard_shape(T rho2, AtZero at_zero = {}) {
  const T a = rho2 + T(1);
  const T inv_a = T(1) / a;
  const T p52 = inv_a * inv_a / sqrt(a);  // (rho^2+1)^(-5/2)
  return {at_zero_of(rho2, (rho2 + T(2.5)) * p52, at_zero), -(T(3) * rho2 + T(10.5)) * p52 * inv_a};
}

// Singular kernel, q = 1: f = 1/rho^3, h = -3/rho^5. Defined as zero at rho = 0 (no
// self-interaction).
template <class T>
VORTEX_HD CoreShape<T> singular_shape(T rho2) {
  const T rho2_safe = rho2 > T(0) ? rho2 : T(1);
  const T inv_rho2 = T(1) / rho2_safe;
  const T inv_rho3 = inv_rho2 / sqrt(rho2_safe);
  const T on = rho2 > T(0) ? T(1) : T(0);
  return {on * inv_rho3, on * T(-3) * inv_rho3 * inv_rho2};
}

}  // namespace detail

// The shape of a core fixed at compile time (used by vectorized loops and kernels), with f at
// rho = 0 given by the AtZero policy (above) for the regularized cores; the singular kernel is 0
// there.
template <Core C, class T, class AtZero = KeepAtZero>
VORTEX_HD CoreShape<T> core_shape(T rho2, AtZero at_zero = {}) {
  if constexpr (C == Core::Exponential) return detail::exponential_shape(rho2, at_zero);
  if constexpr (C == Core::Gaussian) return detail::gaussian_shape(rho2, at_zero);
  if constexpr (C == Core::RosenheadMoore) return detail::rosenhead_moore_shape(rho2, at_zero);
  if constexpr (C == Core::WinckelmansLeonard)
    return detail::winckelmans_leonard_shape(rho2, at_zero);
  if constexpr (C == Core::Singular) return detail::singular_shape(rho2);
}

// 1/sigma as the kernels read it: the singular kernel has no length scale, so it reads every
// particle's sigma as 1 (F = 1/r^3 whatever sigma is).
template <class T>
VORTEX_HD T kernel_inv_sigma(Core core, T inv_sigma) {
  return core == Core::Singular ? T(1) : inv_sigma;
}

// F and F'/r of a core fixed at compile time.
template <Core C, class T>
VORTEX_HD CoreFactors<T> core_factors(T r2, T inv_sigma) {
  inv_sigma = kernel_inv_sigma(C, inv_sigma);
  const T inv_sigma2 = inv_sigma * inv_sigma;
  const CoreShape<T> k = core_shape<C>(r2 * inv_sigma2);
  const T inv_sigma3 = inv_sigma2 * inv_sigma;
  return {k.f * inv_sigma3, k.h * inv_sigma3 * inv_sigma2};
}

// Core factors with the core chosen at run time.
template <class T>
VORTEX_HD CoreFactors<T> core_factors(Core core, T r2, T inv_sigma) {
  switch (core) {
    case Core::Gaussian:
      return core_factors<Core::Gaussian>(r2, inv_sigma);
    case Core::RosenheadMoore:
      return core_factors<Core::RosenheadMoore>(r2, inv_sigma);
    case Core::WinckelmansLeonard:
      return core_factors<Core::WinckelmansLeonard>(r2, inv_sigma);
    case Core::Singular:
      return core_factors<Core::Singular>(r2, inv_sigma);
    case Core::Exponential:
    default:
      return core_factors<Core::Exponential>(r2, inv_sigma);
  }
}

// q(rho) itself, for tests and diagnostics (host only).
inline double core_fraction(Core core, double rho) {
  const double r2 = rho * rho;
  switch (core) {
    case Core::Exponential:
      return -std::expm1(-r2 * rho);
    case Core::Gaussian:
      return std::erf(rho / std::sqrt(2.0)) - std::sqrt(2.0 / M_PI) * rho * std::exp(-r2 / 2);
    case Core::RosenheadMoore:
      return r2 * rho / std::pow(r2 + 1, 1.5);
    case Core::WinckelmansLeonard:
      return r2 * rho * (r2 + 2.5) / std::pow(r2 + 1, 2.5);
    case Core::Singular:
    default:
      return 1.0;
  }
}

// Calls fn(std::integral_constant<Core, C>{}) with the run-time core turned into a compile-time
// one.
template <class Fn>
decltype(auto) dispatch_core(Core core, Fn&& fn) {
  switch (core) {
    case Core::Gaussian:
      return fn(std::integral_constant<Core, Core::Gaussian>{});
    case Core::RosenheadMoore:
      return fn(std::integral_constant<Core, Core::RosenheadMoore>{});
    case Core::WinckelmansLeonard:
      return fn(std::integral_constant<Core, Core::WinckelmansLeonard>{});
    case Core::Singular:
      return fn(std::integral_constant<Core, Core::Singular>{});
    case Core::Exponential:
    default:
      return fn(std::integral_constant<Core, Core::Exponential>{});
  }
}

}  // namespace vortex
