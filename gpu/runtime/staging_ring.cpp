#include "vortex/gpu/staging_ring.hpp"

#include <omp.h>

#include <algorithm>
#include <cstring>

#include "vortex/gpu/check.hpp"

namespace vortex::gpu {

void parallel_copy(void* dst, const void* src, std::size_t bytes, int threads) {
  // One piece per thread (at least 256 KB): a slot of the staging ring is copied by all threads.
  constexpr std::size_t kLeast = std::size_t(1) << 18;
  const int team = threads > 0 ? threads : omp_get_max_threads();
  const std::size_t piece = std::max(kLeast, (bytes + team - 1) / team);
  const std::ptrdiff_t pieces = static_cast<std::ptrdiff_t>((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) num_threads(team) if (pieces > 1)
  for (std::ptrdiff_t c = 0; c < pieces; ++c) {
    const std::size_t lo = c * piece, n = std::min(piece, bytes - lo);
    std::memcpy(static_cast<char*>(dst) + lo, static_cast<const char*>(src) + lo, n);
  }
}

unsigned char* StagingRing::acquire(int& slot) {
  slot = next_;
  next_ = (next_ + 1) % kSlots;
  if (pending_[slot]) done_[slot].synchronize();
  pending_[slot] = false;
  return slots_[slot].reserve(kSlotBytes);
}

void StagingRing::upload(void* dst, const void* src, std::size_t bytes, cudaStream_t stream,
                         int threads) {
  for (std::size_t at = 0; at < bytes; at += kSlotBytes) {
    const std::size_t n = std::min(kSlotBytes, bytes - at);
    int slot;
    unsigned char* staged = acquire(slot);
    parallel_copy(staged, static_cast<const unsigned char*>(src) + at, n, threads);
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

}  // namespace vortex::gpu
