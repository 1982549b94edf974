#pragma once
// SIMD vectors of targets for the CPU far field (host only, GCC/Clang vector extensions). The
// width is the widest the build's instruction set has: 64 bytes (8 doubles, 16 floats) where the
// compiler targets AVX-512 (-march=native on such a machine), 32 bytes with AVX, 16 bytes (SSE2)
// otherwise (in a portable build without AVX, 32-byte vectors made the far field about 1.2 times
// slower than 16-byte ones). The width is a template argument of every function that uses it, so
// translation units built for different instruction sets never share a symbol.

#include <cmath>
#include <cstring>

#include "vortex/multipole/solid_harmonics.hpp"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(__CUDACC__)
#define VORTEX_MULTIPOLE_BATCH_SIMD 1
#endif

namespace vortex::multipole {
// Bytes per vector of targets, and targets per vector of arithmetic T.
constexpr int simd_bytes() {
#if defined(__AVX512F__)
  return 64;
#elif defined(__AVX__)
  return 32;
#else
  return 16;
#endif
}
template <class T>
constexpr int target_lane_count() {
  return simd_bytes() / int(sizeof(T));
}
}  // namespace vortex::multipole

#if defined(VORTEX_MULTIPOLE_BATCH_SIMD)
namespace vortex::multipole::simd {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"

constexpr int kVectorBytes = simd_bytes();

// W targets of arithmetic T per vector of B bytes.
template <class T, int B = kVectorBytes>
struct Lanes {
  static constexpr int W = B / int(sizeof(T));
  typedef T type __attribute__((vector_size(B)));
};

template <class T, int B>
using Vec = typename Lanes<T, B>::type;

// Loads W values (any alignment).
template <class T, int B>
inline Vec<T, B> load(const T* p) {
  Vec<T, B> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Lane-wise square root (the optimizer turns the loop into one vector instruction).
template <class T, int B>
inline Vec<T, B> sqrt(Vec<T, B> x) {
  for (int i = 0; i < Lanes<T, B>::W; ++i) x[i] = std::sqrt(x[i]);
  return x;
}

// acc[0 .. W) += x, in double: a double vector is added as it is, a float vector in two halves
// converted to double (the far field sums each box's float terms into double per target).
template <class T, int B>
inline void add_to_double(Vec<T, B> x, double* acc) {
  if constexpr (sizeof(T) == 8) {
    Vec<double, B> a = load<double, B>(acc);
    a += x;
    std::memcpy(acc, &a, sizeof a);
  } else {
    typedef float Half __attribute__((vector_size(B / 2)));
    for (int h = 0; h < 2; ++h) {
      Half f;
      std::memcpy(&f, reinterpret_cast<const char*>(&x) + h * sizeof f, sizeof f);
      Vec<double, B> a = load<double, B>(acc + h * Lanes<double, B>::W);
      a += __builtin_convertvector(f, Vec<double, B>);
      std::memcpy(acc + h * Lanes<double, B>::W, &a, sizeof a);
    }
  }
}

#pragma GCC diagnostic pop
}  // namespace vortex::multipole::simd

namespace vortex::multipole {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
// The harmonics' recurrences take the square root of vectors through LaneSqrt.
template <class T, int B>
struct VectorSqrt {
  static simd::Vec<T, B> apply(simd::Vec<T, B> x) { return simd::sqrt<T, B>(x); }
};
template <>
struct LaneSqrt<simd::Vec<double, 16>> : VectorSqrt<double, 16> {};
template <>
struct LaneSqrt<simd::Vec<float, 16>> : VectorSqrt<float, 16> {};
template <>
struct LaneSqrt<simd::Vec<double, 32>> : VectorSqrt<double, 32> {};
template <>
struct LaneSqrt<simd::Vec<float, 32>> : VectorSqrt<float, 32> {};
template <>
struct LaneSqrt<simd::Vec<double, 64>> : VectorSqrt<double, 64> {};
template <>
struct LaneSqrt<simd::Vec<float, 64>> : VectorSqrt<float, 64> {};
#pragma GCC diagnostic pop
}  // namespace vortex::multipole
#endif
