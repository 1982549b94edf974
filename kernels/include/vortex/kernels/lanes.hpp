#pragma once
// How the per-neighbour loops of one small solve are spread: over one thread (SerialLanes: the
// host's solves, and any caller that gives each particle a thread) or over the 32 lanes of a warp
// that solve one particle together (WarpLanes: the device's VRM). A loop over neighbours runs in
// chunks of width() of them, lane() taking one of each chunk; a sum over neighbours is taken per
// lane, then across the lanes by a butterfly of pairwise adds, which leaves the same bits in every
// lane (a + b and b + a round alike), so that all lanes take the same branches after it. With one
// lane every sum is the plain sum in neighbour order.

#include "vortex/kernels/hd.hpp"

namespace vortex {

struct SerialLanes {
  VORTEX_HD int lane() const { return 0; }
  VORTEX_HD int width() const { return 1; }
  VORTEX_HD double sum(double v) const { return v; }
  VORTEX_HD double min(double v) const { return v; }
  // Bit l set when lane l's flag is.
  VORTEX_HD unsigned ballot(bool flag) const { return flag ? 1u : 0u; }
  VORTEX_HD void sync() const {}
};

// The 32 lanes of a warp, all of them active (on the host, where it is never used, one lane).
struct WarpLanes {
  VORTEX_HD int lane() const {
#if defined(__CUDA_ARCH__)
    return static_cast<int>(threadIdx.x & 31u);
#else
    return 0;
#endif
  }
  VORTEX_HD int width() const {
#if defined(__CUDA_ARCH__)
    return 32;
#else
    return 1;
#endif
  }
  VORTEX_HD double sum(double v) const {
#if defined(__CUDA_ARCH__)
    for (int s = 16; s > 0; s >>= 1) v += __shfl_xor_sync(0xffffffffu, v, s);
#endif
    return v;
  }
  VORTEX_HD double min(double v) const {
#if defined(__CUDA_ARCH__)
    for (int s = 16; s > 0; s >>= 1) v = fmin(v, __shfl_xor_sync(0xffffffffu, v, s));
#endif
    return v;
  }
  VORTEX_HD unsigned ballot(bool flag) const {
#if defined(__CUDA_ARCH__)
    return __ballot_sync(0xffffffffu, flag);
#else
    return flag ? 1u : 0u;
#endif
  }
  VORTEX_HD void sync() const {
#if defined(__CUDA_ARCH__)
    __syncwarp();
#endif
  }
};

}  // namespace vortex
