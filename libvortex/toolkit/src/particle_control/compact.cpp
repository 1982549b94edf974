#include "particle_control/compact.hpp"

#include <algorithm>
#include <cstddef>

#include <omp.h>

namespace vortex::detail {

// Each thread takes a range of places and writes its survivors after those of the ranges before
// it (a scan of the ranges' counts).
void compact(ParticleSet& p, const std::vector<char>& removed, const std::int32_t* order,
             std::vector<double>& scratch) {
  const std::size_t n = p.size();
  const int ranges = n > 100000 ? std::max(1, omp_get_max_threads()) : 1;
  const std::size_t width = (n + ranges - 1) / ranges;
  const auto particle = [&](std::size_t at) {
    return order ? static_cast<std::size_t>(order[at]) : at;
  };
  std::vector<std::size_t> first(ranges + 1, 0);  // survivors before each range
#pragma omp parallel for schedule(static, 1) if (ranges > 1)
  for (int r = 0; r < ranges; ++r) {
    std::size_t count = 0;
    for (std::size_t at = std::min(n, r * width); at < std::min(n, (r + 1) * width); ++at)
      count += removed[particle(at)] == 0;
    first[r + 1] = count;
  }
  for (int r = 0; r < ranges; ++r) first[r + 1] += first[r];
  const std::size_t kept = first[ranges];
  for (std::vector<double>* a : p.arrays()) {
    scratch.resize(kept);
#pragma omp parallel for schedule(static, 1) if (ranges > 1)
    for (int r = 0; r < ranges; ++r) {
      std::size_t to = first[r];
      for (std::size_t at = std::min(n, r * width); at < std::min(n, (r + 1) * width); ++at) {
        const std::size_t i = particle(at);
        if (!removed[i]) scratch[to++] = (*a)[i];
      }
    }
    a->swap(scratch);
  }
}

}  // namespace vortex::detail
