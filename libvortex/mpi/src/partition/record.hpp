#pragma once
// A particle or target point as the distributed solver moves it between ranks: its position (in
// internal units), its core radius rounded up to float for the tree's max_sigma, its strength and
// exact core radius (sources), the piece of the tree it was sent to, and where it came from.

#include <cstdint>

namespace vortex::mpi::detail {

struct Record {
  double p[3];
  float sigma;     // rounded up to float (KdNode::max_sigma), 0 for targets
  int piece;       // the tree position where its piece of the rank split begins
  double g[3];     // strength (sources)
  double s;        // core radius (sources)
  long long from;  // origin: rank * 2^40 + index in that rank's arrays
};

constexpr int kOriginShift = 40;
inline long long origin_of(int rank, long long index) {
  return (static_cast<long long>(rank) << kOriginShift) | index;
}
inline int origin_rank(long long from) {
  return static_cast<int>(from >> kOriginShift);
}
inline long long origin_index(long long from) {
  return from & ((1LL << kOriginShift) - 1);
}

}  // namespace vortex::mpi::detail
