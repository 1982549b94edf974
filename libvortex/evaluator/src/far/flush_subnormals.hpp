#pragma once
// Float sums with subnormal operands. The float far field multiplies expansion coefficients that
// scale like (box radius)^n by strengths ~ sigma^2: on flat or fine sets at high orders these
// products fall below float's smallest normal number (1.2e-38), where x86 cores take a slow
// microcode path for every operation (measured: the far field of a cube of 1e5 particles at
// p = 13 went from 2.8 s to 34 s with the strengths scaled by 1e-12). Such values are 1e-32 and
// more below the sums they feed, so the float stages flush them to zero instead (MXCSR's FTZ and
// DAZ bits), on every OpenMP thread, for the lifetime of a FlushSubnormals.

#include <omp.h>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace vortex::detail {

class FlushSubnormals {
 public:
  FlushSubnormals() { for_each_thread(true); }
  ~FlushSubnormals() { for_each_thread(false); }
  FlushSubnormals(const FlushSubnormals&) = delete;
  FlushSubnormals& operator=(const FlushSubnormals&) = delete;

 private:
  static void for_each_thread(bool set) {
#if defined(__SSE__)
    constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
    // Each thread keeps its own control word to restore; a thread that did not set it (another
    // team) leaves its own alone.
    static thread_local unsigned saved = 0;
    static thread_local bool is_set = false;
#pragma omp parallel
    {
      if (set && !is_set) {
        saved = _mm_getcsr();
        _mm_setcsr(saved | kFlushToZero | kDenormalsAreZero);
        is_set = true;
      } else if (!set && is_set) {
        _mm_setcsr(saved);
        is_set = false;
      }
    }
#else
    (void)set;
#endif
  }
};

}  // namespace vortex::detail
