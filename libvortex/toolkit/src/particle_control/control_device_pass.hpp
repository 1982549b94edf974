#pragma once
// Particle control's per-particle decisions on the device (ParticleControlOptions::backend): the
// merges and the candidates' receivers and fractions that the device can decide, the rest left
// to the host's passes in particle_control.cpp.

#include <cstddef>
#include <vector>

#include "particle_control/control_scratch.hpp"
#include "vortex/particle_control.hpp"

namespace vortex::detail {

// Whether this call's decisions go to the device (w.on_device): a whole set (not a part) of more
// than 20,000 particles, a backend that resolves to Cuda, and with a wall its distance hook. If
// so, loads it with the grid (built), the strengths (w.strength) and the wall's distances.
void load_device(const ParticleSet& p, const ParticleControlOptions& o, double threshold,
                 const ControlParts* parts, ControlScratch& w, ParticleControlStats& stats);

// The merges the device decides, flagged in w.merge and w.candidate; the particles near a wall
// whose merge the host must decide (a stronger neighbour within the merge distance, the wall
// perhaps between them) in w.host_merges.
void device_merges(const ParticleSet& p, const ParticleControlOptions& o, ControlScratch& w,
                   ParticleControlStats& stats);

// The receivers of the candidates (w.spatial, in the grid's order) that the device decides, in
// w.lists; `host` gets the positions in w.spatial of those left to the host.
void device_shares(const ParticleControlOptions& o, ControlScratch& w,
                   std::vector<std::size_t>& host, ParticleControlStats& stats);

}  // namespace vortex::detail
