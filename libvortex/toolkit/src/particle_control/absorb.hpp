#pragma once
// The hand-over of a removed or merged particle's strength to the neighbours that stay, with
// fractions that keep the total and the first moment (vortex/particle_control.hpp).

#include <cmath>
#include <cstddef>
#include <vector>

#include "vortex/grid_search.hpp"
#include "vortex/math/closest_panel.hpp"
#include "vortex/particle_control.hpp"

namespace vortex::detail {

// Whether the path from particle i to particle j leaves the fluid: by the wall's distances where
// they decide it (`wall`, when given and solid), else by the options' wall hook.
inline bool blocked(const ParticleSet& p, const ParticleControlOptions& o, std::size_t i,
                    std::size_t j, const WallNearby* wall) {
  if (!o.blocked) return false;
  if (wall != nullptr && wall->solid) {
    const double dx = p.x[j] - p.x[i], dy = p.y[j] - p.y[i], dz = p.z[j] - p.z[i];
    const int decided =
        bodies::path_by_distances(wall->distance[i], wall->distance[j],
                                  std::sqrt(dx * dx + dy * dy + dz * dz), wall->body_scale);
    if (decided >= 0) return decided == 1;
  }
  return o.blocked(i, {p.x[i], p.y[i], p.z[i]}, {p.x[j], p.y[j], p.z[j]});
}

// One thread's scratch of absorb().
struct AbsorbScratch {
  std::vector<int> found;
  std::vector<double> offsets;  // 3 a receiver, in units of h
  std::vector<double> f, inv_c, dots, trial_dots;
  bool signed_shares = false;        // the last absorb's fractions are signed
  const WallNearby* wall = nullptr;  // the wall's distances for blocked(), when known
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
