#pragma once
// Sorting on all OpenMP threads: each sorts a contiguous part, then parts are merged pairwise. With
// distinct keys the result is std::sort's whatever the thread count.

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace vortex::detail {

// Sorts v; `buffer` and `bounds` are scratch, kept by the caller so that repeated sorts of no more
// elements allocate nothing.
template <class T>
void parallel_sort(std::vector<T>& v, std::vector<T>& buffer, std::vector<std::size_t>& bounds) {
  const std::size_t n = v.size();
  const int parts = n < (1u << 16) ? 1 : std::max(1, omp_get_max_threads());
  if (parts == 1) {
    std::sort(v.begin(), v.end());
    return;
  }
  bounds.resize(parts + 1);
  for (int k = 0; k <= parts; ++k) bounds[k] = n * k / parts;
#pragma omp parallel for schedule(static, 1)
  for (int k = 0; k < parts; ++k) std::sort(v.begin() + bounds[k], v.begin() + bounds[k + 1]);
  buffer.resize(n);
  std::vector<T>*from = &v, *to = &buffer;
  for (int width = 1; width < parts; width *= 2) {
#pragma omp parallel for schedule(static, 1)
    for (int k = 0; k < parts; k += 2 * width) {
      const std::size_t a = bounds[k], b = bounds[std::min(k + width, parts)],
                        c = bounds[std::min(k + 2 * width, parts)];
      std::merge(from->begin() + a, from->begin() + b, from->begin() + b, from->begin() + c,
                 to->begin() + a);
    }
    std::swap(from, to);
  }
  if (from != &v) v.swap(buffer);
}

}  // namespace vortex::detail
