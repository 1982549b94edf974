#pragma once
// The wall as particle control's decisions on the device read it (vortex/particle_control.hpp's
// WallNearby): the particles' distances from one batch of closest points (exact within the reach,
// a lower bound beyond it) and, on a convex body, the tangent planes of their closest panels.

#include <cstdint>

#include "vortex/bodies/wall.hpp"
#include "vortex/particle_control.hpp"

namespace vortex::bodies {

// Fills `out` for `particles` within `reach` of the wall (closest points on `backend`, in
// `scratch`). A particle inside the body deeper than the reach counts as far from the wall (none
// is left there by keep_in_fluid).
void find_wall_nearby(const WallQueries& wall, const ParticleSet& particles, double reach,
                      Backend backend, KnownWallPoints& scratch, WallNearby& out);

}  // namespace vortex::bodies
