#pragma once
// The hand-over of a removed or merged particle's strength to the neighbours that stay, with
// fractions that keep the total and the first moment (vortex/particle_control.hpp).

#include <cstddef>
#include <vector>

#include "vortex/grid_search.hpp"
#include "vortex/particle_control.hpp"

namespace vortex::detail {

// Whether the path from particle i to particle j leaves the fluid (the options' wall hook).
inline bool blocked(const ParticleSet& p, const ParticleControlOptions& o, std::size_t i,
                    std::size_t j) {
  return o.blocked && o.blocked(i, {p.x[i], p.y[i], p.z[i]}, {p.x[j], p.y[j], p.z[j]});
}

// One thread's scratch of absorb().
struct AbsorbScratch {
  std::vector<int> found;
  std::vector<double> offsets;  // 3 a receiver, in units of h
  std::vector<double> f, inv_c, dots, trial_dots;
  bool signed_shares = false;  // the last absorb's fractions are signed
};

// The receivers of particle i's strength and their fractions, appended to `receivers` and
// `fractions`: its neighbours that are not candidates for removal and that no wall separates from
// it (within a radius doubled up to 8 times the absorb radius), with fractions that keep the total
// and the first moment (vortex/math/control_shares.hpp). A merge (`merging`: a particle that is not
// weak) takes non-negative fractions only, so that no receiver gains more than the particle had; a
// weak particle takes signed ones, bounded by control::kMaxSignedSum, where it lies outside its
// receivers' hull. False (and nothing appended) when none works.
bool absorb(const ParticleSet& p, std::size_t i, bool merging, const std::vector<char>& candidate,
            const GridSearch& search, const ParticleControlOptions& o, AbsorbScratch& w,
            std::vector<int>& receivers, std::vector<double>& fractions);

}  // namespace vortex::detail
