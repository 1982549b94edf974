#pragma once
// The device-built treecode's internal units (the evaluator's backend/units.hpp): the input copied
// into them, the results scaled back to the caller's, and the results checked to be finite.
// Scales are powers of two, so every scaling is exact.

#include <cuda_runtime_api.h>

namespace vortex::gpu {

// dst[k][i] = src[k][i] * factor[k] for the arrays k < count of n[k] entries (src may be dst).
struct ScaleArrays {
  static constexpr int kMax = 12;
  const double* src[kMax] = {};
  double* dst[kMax] = {};
  long long n[kMax] = {};
  double factor[kMax] = {};
  double second[kMax] = {};  // a second factor, applied after the first (1: none)
  int count = 0;
};
void launch_scale_arrays(const ScaleArrays& s, cudaStream_t stream);

// The first entry that is not finite of `components` arrays of n values laid out one after
// another in `values`: its component and index, or component -1. Waits for `stream`.
struct FirstNonFinite {
  int component = -1;
  long long index = 0;
};
FirstNonFinite find_non_finite(const double* values, int components, long long n,
                               unsigned long long* word, cudaStream_t stream);

}  // namespace vortex::gpu
