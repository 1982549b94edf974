#pragma once
// Particle control on one part of a particle set split over several processes (the distributed
// toolkit's, libvortex/mpi): the part holds its own particles, then copies of the other parts'
// particles within the reach of its receivers' search. Its own particles are the candidates it
// decides and hands over; the copies are receivers whose candidacy their own parts decide (a
// copy at the edge of the part's reach lacks neighbours that decide it). The threshold and the
// largest strength are the whole set's (docs/methods/distributed.md).

#include <array>
#include <cstddef>
#include <functional>
#include <vector>

#include "vortex/particles.hpp"

namespace vortex::detail {

// What a partner took (MergeInto::Partner): the merged |Gamma| and |Gamma| times their offsets from
// the partner (small numbers: their sums round alike in any order, on any split).
using MergeMoments = std::array<double, 4>;

struct ControlParts {
  std::size_t own = 0;                    // the part's particles: [0, own); copies after them
  std::function<double(double)> largest;  // the largest of all parts' values
  // The removal threshold of the whole set, given the relative one (remove_threshold times the
  // largest strength) and the |Gamma| of this part's own particles.
  std::function<double(double relative, const double* strengths, std::size_t own)> threshold;
  // The copies' candidacy (candidate[own ...]) replaced by what their own parts decided, given
  // this part's (candidate[0, own)).
  std::function<void(std::vector<char>& candidate)> copies_candidacy;
  // After the hand-over: what the copies received goes home: their strengths (zero before it)
  // and, where `moments` is not empty (merges into partners), their moments[own ...].
  std::function<void(ParticleSet& particles, std::vector<MergeMoments>& moments)> copies_home;
};

}  // namespace vortex::detail
