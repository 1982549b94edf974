#pragma once
// Owning device and pinned-host buffers. Both only grow: reserve() keeps the allocation when it is
// large enough, so a Solver that is called every time step allocates once.

#include <cstddef>
#include <utility>

namespace vortex::gpu {

enum class Memory { Device, PinnedHost };

// Raw allocation of `bytes` (never null for bytes > 0; throws on failure) and its release of the
// same size (errors ignored: it runs in destructors).
void* allocate(Memory kind, std::size_t bytes);
void release(Memory kind, void* p, std::size_t bytes) noexcept;

// Bytes of each kind that this process's buffers hold now (all Solvers together).
std::size_t held_bytes(Memory kind) noexcept;

template <class T, Memory Kind>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t n) { reserve(n); }
  ~Buffer() { release(Kind, data_, bytes()); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), capacity_(std::exchange(o.capacity_, 0)) {}
  Buffer& operator=(Buffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(capacity_, o.capacity_);
    return *this;
  }

  // Makes room for n elements; old contents are not kept when it reallocates.
  T* reserve(std::size_t n) {
    if (n > capacity_) {
      // Some headroom, so that slowly growing sizes do not reallocate every call.
      const std::size_t grown = n + n / 8;
      release(Kind, data_, bytes());
      data_ = nullptr;
      capacity_ = 0;
      data_ = static_cast<T*>(allocate(Kind, grown * sizeof(T)));
      capacity_ = grown;
    }
    return data_;
  }

  T* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }
  std::size_t bytes() const { return capacity_ * sizeof(T); }

 private:
  T* data_ = nullptr;
  std::size_t capacity_ = 0;
};

template <class T>
using DeviceBuffer = Buffer<T, Memory::Device>;
template <class T>
using PinnedBuffer = Buffer<T, Memory::PinnedHost>;

// Copies `bytes` from host memory to device memory and returns when they are there.
void copy_to_device(void* to, const void* from, std::size_t bytes);

// Makes room for n elements (at least one) in `to` and copies n from the host there; returns the
// device pointer.
template <class T>
T* upload(DeviceBuffer<T>& to, const T* from, std::size_t n) {
  T* at = to.reserve(n > 0 ? n : 1);
  if (n > 0) copy_to_device(at, from, n * sizeof(T));
  return at;
}

}  // namespace vortex::gpu
