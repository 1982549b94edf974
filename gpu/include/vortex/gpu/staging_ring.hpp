#pragma once
// Host arrays to and from device memory through a few fixed pinned slots: the host copy of one
// slot overlaps the DMA of the others, and the pinned memory held does not grow with N (it was
// 150 bytes per particle when the whole input and output were staged at once).

#include <cstddef>

#include "vortex/gpu/buffer.hpp"
#include "vortex/gpu/stream.hpp"

namespace vortex::gpu {

// memcpy on `threads` threads (0: all of OpenMP's): staging copies are hundreds of MB at large N.
void parallel_copy(void* dst, const void* src, std::size_t bytes, int threads = 0);

class StagingRing {
 public:
  static constexpr int kSlots = 4;
  static constexpr std::size_t kSlotBytes = std::size_t(8) << 20;

  // Queues the copy of `bytes` from host `src` (any memory) to device `dst` on `stream`; returns
  // when `src` may change (the last slot's DMA may still run).
  // `threads` as for parallel_copy.
  void upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream, int threads = 0);
  // Copies `bytes` from device `src` to host `dst` (any memory) after the work queued on `stream`;
  // returns when `dst` holds them.
  void download(void* dst, const void* src, std::size_t bytes, cudaStream_t stream);

 private:
  // The next slot, once the DMA that last used it has completed.
  unsigned char* acquire(int& slot);

  PinnedBuffer<unsigned char> slots_[kSlots];
  Event done_[kSlots];
  bool pending_[kSlots] = {};
  int next_ = 0;
};

// Makes room for n elements (at least one) in `to` and queues their copy from the host through
// `ring` on `stream`; returns the device pointer (its data there once `stream` reaches the copy).
template <class T>
T* stage(StagingRing& ring, DeviceBuffer<T>& to, const T* from, std::size_t n, cudaStream_t stream,
         int threads = 0) {
  T* at = to.reserve(n > 0 ? n : 1);
  if (n > 0) ring.upload(at, from, n * sizeof(T), stream, threads);
  return at;
}

}  // namespace vortex::gpu
