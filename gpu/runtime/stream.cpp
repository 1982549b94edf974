#include "vortex/gpu/stream.hpp"

#include "vortex/gpu/check.hpp"

namespace vortex::gpu {

Stream::Stream(bool high_priority) {
  int least = 0, greatest = 0;
  VORTEX_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  VORTEX_CUDA_CHECK(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking,
                                                 high_priority ? greatest : least));
}
Stream::~Stream() {
  if (stream_) cudaStreamDestroy(stream_);
}
void Stream::synchronize() const {
  VORTEX_CUDA_CHECK(cudaStreamSynchronize(stream_));
}
void Stream::wait(cudaEvent_t event) const {
  VORTEX_CUDA_CHECK(cudaStreamWaitEvent(stream_, event, 0));
}

Event::Event(unsigned flags) {
  VORTEX_CUDA_CHECK(cudaEventCreateWithFlags(&event_, flags));
}
Event::~Event() {
  if (event_) cudaEventDestroy(event_);
}
void Event::record(const Stream& stream) const {
  VORTEX_CUDA_CHECK(cudaEventRecord(event_, stream.get()));
}
void Event::synchronize() const {
  VORTEX_CUDA_CHECK(cudaEventSynchronize(event_));
}
double Event::seconds_since(const Event& start) const {
  float ms = 0;
  VORTEX_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), event_));
  return 1e-3 * ms;
}

}  // namespace vortex::gpu
