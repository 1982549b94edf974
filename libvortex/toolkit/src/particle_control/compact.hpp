#pragma once
// The particle control's last pass (vortex/particle_control.hpp): the removed particles dropped,
// the survivors written in the caller's order or in the grid's.

#include <cstdint>
#include <vector>

#include "vortex/particles.hpp"

namespace vortex::detail {

// Drops the particles flagged in `removed` and writes the survivors in the order of `order` (the
// places' particles, a permutation of 0..n-1; null: the caller's order), each array anew in
// `scratch` and swapped in.
void compact(ParticleSet& p, const std::vector<char>& removed, const std::int32_t* order,
             std::vector<double>& scratch);

}  // namespace vortex::detail
