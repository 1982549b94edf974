#pragma once
// A particle or target point as the distributed solver moves it between ranks: its position (in
// internal units), its core radius rounded up to float for the tree's max_sigma, its strength and
// exact core radius (sources), the piece of the tree it was sent to, and where it came from.

#include <cstdint>
#include <vector>

#include "backend/units.hpp"
#include "vortex/particles.hpp"

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

// A rank's sources or targets as records, positions, cores and strengths in internal units `u`,
// into `r` (its storage kept between calls: a fresh vector's pages are faulted in anew).
void source_records(SourcesView s, vortex::detail::Units u, int rank, std::vector<Record>& r);
void target_records(PointsView t, vortex::detail::Units u, int rank, std::vector<Record>& r);
// Records as particles, lengths times `length` and strengths times `strength` (the inverse of the
// units' factors gives back the caller's values exactly: they are powers of two).
void particles_of(const std::vector<Record>& records, ParticleSet& p, double length = 1,
                  double strength = 1);
void points_of(const std::vector<Record>& records, Points& p);
// Points times the units' length factor (the direct method's targets).
void scaled_points(PointsView t, vortex::detail::Units u, Points& p);

}  // namespace vortex::mpi::detail
