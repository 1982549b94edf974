#pragma once
// Stream compaction in index order on the host's threads: the indices a predicate picks, each
// given its rank among them, the same for any thread count.

#include <cstddef>
#include <vector>

#include <omp.h>

namespace vortex {

// The rank place_in_order gives an index that is not picked.
constexpr std::size_t kNotPicked = ~std::size_t{0};

// Calls sized(total) once the picked indices i in [0, n) are counted (pick(i) true), then
// place(i, rank) for every i: rank the number of picked indices below i, or kNotPicked. Each
// thread counts the picks of its range of indices, then places its range from its offset (with
// `parallel`; else on the calling thread). pick is called twice an index. Returns the total.
template <class Pick, class Sized, class Place>
std::size_t place_in_order(std::size_t n, const Pick& pick, const Sized& sized, const Place& place,
                           bool parallel = true) {
  // Per thread of the team, where its places begin: the calling thread's, kept so that repeated
  // calls allocate nothing (the team reads it through this reference, not its own thread_local).
  thread_local std::vector<std::size_t> kept;
  std::vector<std::size_t>& offsets = kept;
  offsets.assign(static_cast<std::size_t>(omp_get_max_threads()) + 1, 0);
  std::size_t total = 0;
#pragma omp parallel if (parallel)
  {
    const std::size_t t = omp_get_thread_num(), threads = omp_get_num_threads();
    const std::size_t lo = n * t / threads, hi = n * (t + 1) / threads;
    std::size_t count = 0;
    for (std::size_t i = lo; i < hi; ++i) count += pick(i) ? 1 : 0;
    offsets[t + 1] = count;
#pragma omp barrier
#pragma omp single
    {
      for (std::size_t k = 0; k < threads; ++k) offsets[k + 1] += offsets[k];
      total = offsets[threads];
      sized(total);
    }
    std::size_t at = offsets[t];
    for (std::size_t i = lo; i < hi; ++i) place(i, pick(i) ? at++ : kNotPicked);
  }
  return total;
}

}  // namespace vortex
