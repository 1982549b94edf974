#pragma once
// What the Solver accepts of one source particle or target point: the fast test that the host's
// parallel check and the device's run over every entry (the host's serial checks then name the
// first entry that fails).

#include <cmath>

#include "vortex/math/hd.hpp"

namespace vortex::input_check {

// Lengths outside [kMinLength, kMaxLength] make 1/sigma^3 overflow or Gamma/sigma^3 underflow
// (and products of coordinates leave the range of double): results would be NaN or 0.
constexpr double kMinLength = 1e-100, kMaxLength = 1e100;
// Gamma/sigma^3 (what the kernels multiply) must stay a normal double with room to spare.
constexpr double kMinStrength = 1e-290, kMaxStrength = 1e290;

VORTEX_HD bool finite(double v) {
#if defined(__CUDA_ARCH__)
  return isfinite(v);
#else
  return std::isfinite(v);
#endif
}

VORTEX_HD bool length_ok(double v) {
  return fabs(v) <= kMaxLength;  // false for NaN and infinities too
}

VORTEX_HD bool target_ok(double x, double y, double z) {
  return length_ok(x) && length_ok(y) && length_ok(z);
}

VORTEX_HD bool source_ok(double x, double y, double z, double gx, double gy, double gz,
                         double sigma) {
  if (!(sigma >= kMinLength && sigma <= kMaxLength)) return false;
  if (!target_ok(x, y, z)) return false;
  const double sigma3 = sigma * sigma * sigma;
  const double g[3] = {gx, gy, gz};
  for (int k = 0; k < 3; ++k) {
    if (!finite(g[k])) return false;
    const double scaled = fabs(g[k]) / sigma3;
    if (g[k] != 0 && !(scaled >= kMinStrength && scaled <= kMaxStrength)) return false;
  }
  return true;
}

}  // namespace vortex::input_check
