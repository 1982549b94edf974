#pragma once
// Owning CUDA stream and event handles.

#include <cuda_runtime_api.h>

namespace vortex::gpu {

class Stream {
 public:
  // Non-blocking with respect to the legacy default stream; a high-priority stream's blocks are
  // scheduled before those of normal streams waiting for the same multiprocessors.
  explicit Stream(bool high_priority = false);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const { return stream_; }
  void synchronize() const;
  // Work queued on this stream after the call waits for `event`.
  void wait(cudaEvent_t event) const;

 private:
  cudaStream_t stream_ = nullptr;
};

class Event {
 public:
  // With timing; cudaEventBlockingSync makes synchronize() sleep rather than spin (the waiting
  // thread leaves its core to the host's work).
  explicit Event(unsigned flags = cudaEventDefault);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const { return event_; }
  void record(const Stream& stream) const;
  void synchronize() const;
  // Seconds from `start` to this event; both must have completed.
  double seconds_since(const Event& start) const;

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace vortex::gpu
