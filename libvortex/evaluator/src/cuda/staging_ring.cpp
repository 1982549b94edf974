#include "cuda/staging_ring.hpp"

#include <algorithm>

#include "cuda/workspace.hpp"

namespace vortex::detail {

unsigned char* StagingRing::acquire(int& slot) {
  slot = next_;
  next_ = (next_ + 1) % kSlots;
  if (pending_[slot]) done_[slot].synchronize();
  pending_[slot] = false;
  return slots_[slot].reserve(kSlotBytes);
}

void StagingRing::upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  for (std::size_t at = 0; at < bytes; at += kSlotBytes) {
    const std::size_t n = std::min(kSlotBytes, bytes - at);
    int slot;
    unsigned char* staged = acquire(slot);
    parallel_copy(staged, static_cast<const unsigned char*>(src) + at, n);
    VORTEX_CUDA_CHECK(cudaMemcpyAsync(static_cast<unsigned char*>(dst) + at, staged, n,
                                      cudaMemcpyHostToDevice, stream));
    VORTEX_CUDA_CHECK(cudaEventRecord(done_[slot].get(), stream));
    pending_[slot] = true;
  }
}

void StagingRing::download(void* dst, const void* src, std::size_t bytes, cudaStream_t stream) {
  // Up to kSlots copies in flight; each slot is copied out once its DMA is done.
  const std::size_t chunks = (bytes + kSlotBytes - 1) / kSlotBytes;
  int slot_of[kSlots];
  auto copy_out = [&](std::size_t chunk) {
    const int slot = slot_of[chunk % kSlots];
    done_[slot].synchronize();
    pending_[slot] = false;
    const std::size_t at = chunk * kSlotBytes, n = std::min(kSlotBytes, bytes - at);
    parallel_copy(static_cast<unsigned char*>(dst) + at, slots_[slot].data(), n);
  };
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
    if (chunk >= kSlots) copy_out(chunk - kSlots);
    const std::size_t at = chunk * kSlotBytes, n = std::min(kSlotBytes, bytes - at);
    int slot;
    unsigned char* staged = acquire(slot);
    slot_of[chunk % kSlots] = slot;
    VORTEX_CUDA_CHECK(cudaMemcpyAsync(staged, static_cast<const unsigned char*>(src) + at, n,
                                      cudaMemcpyDeviceToHost, stream));
    VORTEX_CUDA_CHECK(cudaEventRecord(done_[slot].get(), stream));
    pending_[slot] = true;
  }
  for (std::size_t chunk = chunks > kSlots ? chunks - kSlots : 0; chunk < chunks; ++chunk)
    copy_out(chunk);
}

}  // namespace vortex::detail
