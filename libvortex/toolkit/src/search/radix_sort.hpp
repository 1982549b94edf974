#pragma once
// A stable least-significant-digit radix sort of 64-bit keys with a 32-bit value beside each, on
// all OpenMP threads: each pass counts its thread's part of the keys by digit, and each thread
// then places its part after every earlier thread's keys of the same digit, so the order of equal
// keys is the given one whatever the thread count.

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace vortex::detail {

// Sorts keys (and values alike) by the low `bits` bits of the keys (the others must be zero).
// key_buffer, value_buffer and counts are scratch, kept by the caller so that repeated sorts of
// no more keys allocate nothing.
inline void radix_sort(std::vector<std::uint64_t>& keys, std::vector<std::int32_t>& values,
                       int bits, std::vector<std::uint64_t>& key_buffer,
                       std::vector<std::int32_t>& value_buffer, std::vector<std::size_t>& counts) {
  // As few passes as digits of at most 13 bits allow (each pass reads and writes every key), the
  // bits shared evenly among them.
  const int passes = std::max(1, (bits + 12) / 13);
  const int digit = (bits + passes - 1) / passes;
  const std::size_t buckets = std::size_t{1} << digit;
  const std::size_t n = keys.size();
  const int threads = n < (std::size_t{1} << 16) ? 1 : std::max(1, omp_get_max_threads());
  key_buffer.resize(n);
  value_buffer.resize(n);
  counts.resize(threads * buckets);
  std::vector<std::uint64_t>*from_keys = &keys, *to_keys = &key_buffer;
  std::vector<std::int32_t>*from_values = &values, *to_values = &value_buffer;
  for (int shift = 0; shift < bits; shift += digit) {
    std::size_t* const count = counts.data();
    const std::uint64_t* in_keys = from_keys->data();
    const std::int32_t* in_values = from_values->data();
    std::uint64_t* out_keys = to_keys->data();
    std::int32_t* out_values = to_values->data();
#pragma omp parallel num_threads(threads)
    {
      // The team the runtime gave (it may be smaller than asked for): each thread's part of it.
      const int team = omp_get_num_threads(), t = omp_get_thread_num();
      const std::size_t lo = n * t / team, hi = n * (t + 1) / team;
      std::size_t* mine = count + t * buckets;
      std::fill(mine, mine + buckets, 0);
      for (std::size_t s = lo; s < hi; ++s) ++mine[(in_keys[s] >> shift) & (buckets - 1)];
#pragma omp barrier
#pragma omp single
      {
        std::size_t at = 0;  // digit-major, thread-minor: each thread's place for each digit
        for (std::size_t d = 0; d < buckets; ++d)
          for (int u = 0; u < team; ++u) {
            const std::size_t c = count[u * buckets + d];
            count[u * buckets + d] = at;
            at += c;
          }
      }
      for (std::size_t s = lo; s < hi; ++s) {
        const std::size_t to = mine[(in_keys[s] >> shift) & (buckets - 1)]++;
        out_keys[to] = in_keys[s];
        out_values[to] = in_values[s];
      }
    }
    std::swap(from_keys, to_keys);
    std::swap(from_values, to_values);
  }
  if (from_keys != &keys) {
    keys.swap(key_buffer);
    values.swap(value_buffer);
  }
}

}  // namespace vortex::detail
