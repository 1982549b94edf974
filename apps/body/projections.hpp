#pragma once
// The wake seen along each axis, as the founding paper's Figure 9 shows it: the integrated
// vorticity magnitude, i.e. the particles' |Gamma| binned on a grid over the other two axes per
// unit area, written as gnuplot grids (projection-<axis>-<step>.dat) and drawn side by side
// (projections-<step>.png).

#include <string>

#include "vortex/particles.hpp"

namespace vortex::body_app {

// The particles' bounding box: lo[a] and hi[a] the least and largest coordinate along axis a
// (a non-empty set).
void particle_box(const ParticleSet& particles, double lo[3], double hi[3]);

// Writes the three grids of step `step` into `dir`, `cells` bins along the longest extent of the
// particles (square bins); returns false for an empty set (nothing written).
bool write_projections(const ParticleSet& particles, const std::string& dir, long step, int cells);

// projections-<step>.png from the grids (gnuplot); false when gnuplot failed.
bool plot_projections(const std::string& dir, long step, double time);

}  // namespace vortex::body_app
