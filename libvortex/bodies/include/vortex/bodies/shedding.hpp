#pragma once
// Shedding the wall's vortex sheet into the fluid as particles (BODIES.md section 4).
//
// Panels are grouped into patches of about h by the library's k-d tree over panel centroids
// (leaves of about h^2 / mean panel area panels); each patch becomes one particle carrying the
// patch's total circulation sum_j A_j gamma_j, placed at the strength-weighted centroid of its
// panels and then moved to `offset` above the closest point of the wall.

#include <vector>

#include "vortex/bodies/surface.hpp"
#include "vortex/bodies/wall.hpp"
#include "vortex/particles.hpp"

namespace vortex::bodies {

struct SheddingOptions {
  double spacing = 0;       // h (> 0): the patch size
  double offset = 1.0;      // height above the wall, in units of h (about the core radius)
  double core_radius = 0;   // sigma of shed particles (0: the spacing)
  double min_strength = 0;  // patches weaker than this |Gamma| are not shed (stay in the sheet)
};

// Panels of each patch (computed once per surface and spacing).
std::vector<std::vector<int>> shedding_patches(const Surface& s, double spacing);

// Appends one particle per patch to `particles`; returns the number appended.
std::size_t shed_sheet(const WallQueries& wall, const std::vector<std::vector<int>>& patches,
                       const std::vector<double>& gamma, const SheddingOptions& options,
                       ParticleSet& particles);

}  // namespace vortex::bodies
