#pragma once
// The flow's structure in 3-D, for iso-surfaces beside the paper's Figures 9 and 10: the Q
// criterion, the vorticity magnitude and the velocity sampled on a grid over the wake
// (field-<step>.vtk, legacy VTK structured points, binary float, for ParaView or
// scripts/plots/isosurfaces.py), and the wake's centre along the stream (the CSV's wake_*).

#include <string>

#include "vortex/bodies/body_flow.hpp"
#include "vortex/particles.hpp"

namespace vortex::body_app {

// Writes field-<step>.vtk into `dir`: a grid of `cells` cubes along the longest side of the box
// that holds the particles (padded by three of their largest cores) and the body, at its
// points Q = (|W|^2 - |S|^2) / 2 and |omega| from the velocity gradient of the particles and the
// sheet, the velocity with the free stream `stream`, and `wall_distance`, the signed distance from
// the wall within three cells of it (negative in the body, where the other values are not the
// flow's), else plus or minus three cells. Returns false for an empty set (nothing written).
bool write_field_grid(const ParticleSet& particles, bodies::BodyFlow& flow,
                      const bodies::Vec3& stream, const std::string& dir, long step, double time,
                      int cells);

// The plane normal to the stream through the body's last point along it (found once a run: the
// body does not move); none without a free stream.
struct WakePlane {
  bodies::Vec3 e, last;  // the stream's direction, the body's last point
  bool defined = false;
};
WakePlane wake_plane(const bodies::Surface& surface, const bodies::Vec3& stream);

// Where the wake's vorticity is beyond the body: the centre of |Gamma| of the particles past the
// plane, and their sum of |Gamma|. Where none lies past it, the centre is the body's last point and
// the sum 0; without a plane, both are 0.
struct WakeCentre {
  bodies::Vec3 centre;
  double strength = 0;
};
WakeCentre wake_centre(const ParticleSet& particles, const WakePlane& plane);

}  // namespace vortex::body_app
