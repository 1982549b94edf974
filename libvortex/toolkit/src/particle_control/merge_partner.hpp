#pragma once
// Merges into one partner (MergeInto::Partner, vortex/particle_control.hpp): the partner a merge
// candidate gives its whole strength to, and the partners' move to the |Gamma|-weighted centroid
// of themselves and what they took.

#include <array>
#include <cstddef>
#include <vector>

#include "particle_control/control_parts.hpp"
#include "vortex/grid_search.hpp"
#include "vortex/particle_control.hpp"

namespace vortex::detail {

// The nearest particle to particle i within the merge distance that is not a candidate and that
// no wall separates from i (ties: the lower index; `wall`, when given, the wall's distances for
// the test); -1 where none. `found` is scratch.
int merge_partner(const ParticleSet& p, std::size_t i, const std::vector<char>& candidate,
                  const GridSearch& search, const ParticleControlOptions& o, const WallNearby* wall,
                  std::vector<int>& found);

// Moves each of the first `own` particles that took merges (moments[j][0] > 0) to the centroid
// of itself, weighted by its |Gamma| before the merges (strength_before), and of the merged
// particles; one that the wall hook keeps from the centroid stays.
void move_partners(ParticleSet& p, const std::vector<double>& strength_before,
                   const std::vector<MergeMoments>& moments, std::size_t own,
                   const ParticleControlOptions& o);

}  // namespace vortex::detail
