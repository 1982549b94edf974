#pragma once
// Shedding the wall's vortex sheet into the fluid as particles (docs/methods/bodies.md section 3),
// and the half-space heat kernel that diffuses vorticity next to the wall.
//
// Panels are grouped into patches of about h by the library's k-d tree over panel centroids
// (leaves of about h^2 / mean panel area panels); each patch carries the patch's total
// circulation sum_j A_j gamma_j, centred at the strength-weighted centroid of its panels.
//
// Over a diffusion sub-step of length t the sheet's slip enters the fluid as in Stokes's first
// problem: a slip imposed on a flat wall at the start of the sub-step has, at its end, the
// vorticity profile omega(y) = slip * 2 / (s sqrt(2 pi)) exp(-y^2 / (2 s^2)), s^2 = 2 nu t (the
// derivative of slip * erfc(y / (2 sqrt(nu t)))). With `diffusion_length` = s > 0 each patch
// becomes one particle per layer of that profile (layers of `layer` h from the wall; the last one
// takes the whole tail once what lies beyond it falls below `tail`), with the layer's integral of
// the profile as its share of the circulation and placed at the layer's centroid, above the closest
// point of the wall: the shed vorticity has the profile's total and first moment exactly. With
// s = 0, each patch becomes one particle at `offset` h above the wall.
//
// The vorticity already in the fluid diffuses with no flux through the wall: next to a flat wall
// its heat kernel is the free-space one plus that of the mirror image, which drifts away from the
// wall and spreads less across it. wall_image_moments gives that kernel's moments for the VRM.

#include <vector>

#include "vortex/bodies/body_options.hpp"
#include "vortex/bodies/surface.hpp"
#include "vortex/bodies/wall.hpp"
#include "vortex/particles.hpp"
#include "vortex/vrm.hpp"

namespace vortex::bodies {

// One layer of the shed profile: the height of its centroid and its share of the slip.
struct ShedLayer {
  double height = 0, fraction = 0;
};

// The layers of the half-space heat-kernel profile with diffusion length s (> 0), thickness
// `layer` (> 0, absolute) and tail cut `tail` (in (0, 1)): fractions sum to 1 and
// sum fraction * height = s sqrt(2 / pi), the profile's first moment.
std::vector<ShedLayer> heat_kernel_layers(double s, double layer, double tail);

// Next to a flat wall with no flux through it, a unit of vorticity at distance y >= 0 diffused
// for a time with 2 nu t = s2 has the moments of |Y| along the normal n, Y ~ N(y, s2), and of
// N(0, s2) along the wall: about its start, the first moment (the drift away from the wall)
// delta n with delta = E|Y| - y = s sqrt(2/pi) exp(-y^2 / 2 s2) - y erfc(y / (s sqrt 2)), and
// the second moment s2 I - 2 y delta n n^T.
double wall_image_drift(double distance, double s2);
VrmMoments wall_image_moments(double distance, const Vec3& normal, double s2);

// Panels of each patch (computed once per surface and spacing).
std::vector<std::vector<int>> shedding_patches(const Surface& s, double spacing);

// Appends the particles of every patch to `particles`; returns the number appended.
std::size_t shed_sheet(const WallQueries& wall, const std::vector<std::vector<int>>& patches,
                       const std::vector<double>& gamma, const SheddingOptions& options,
                       ParticleSet& particles);

}  // namespace vortex::bodies
