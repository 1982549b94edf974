#pragma once
// A key of a point's exact position, carried beside the rounded coordinates the pair sums read.
//
// The pair kernel drops a source at the target (the self term of a particle on itself is zero).
// Rounded to float, a target nearer a particle than float's resolution of the cloud lands on the
// particle; the offset alone would then drop a term that the exact positions keep. The kernel
// drops a source only when the offset is zero and the two keys agree: equal positions always give
// equal keys, distinct positions give distinct keys but for a 2^-24 chance.

#include <cstdint>
#include <cstring>

#include "vortex/math/hd.hpp"

namespace vortex {

VORTEX_HD std::uint64_t position_bits(double v) {
  v = v == 0.0 ? 0.0 : v;  // -0 and +0 are one position
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint64_t>(__double_as_longlong(v));
#else
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
#endif
}

// splitmix64's finalizer: every input bit reaches every output bit.
VORTEX_HD std::uint64_t mix_bits(std::uint64_t h) {
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

// The key of (x, y, z): an integer below 2^24, so that float holds it exactly.
VORTEX_HD double point_key(double x, double y, double z) {
  std::uint64_t h = mix_bits(position_bits(x));
  h = mix_bits(h ^ position_bits(y));
  h = mix_bits(h ^ position_bits(z));
  return static_cast<double>(h >> 40);
}

}  // namespace vortex
