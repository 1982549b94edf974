#pragma once
// Quantities of a solved vortex sheet (uniform on each panel, gamma_j = g_j1 t_j1 + g_j2 t_j2).

#include <vector>

#include "vortex/bodies/surface.hpp"

namespace vortex::bodies {

// gamma_j as vectors.
std::vector<Vec3> sheet_vectors(const Surface& s, const std::vector<double>& gamma);
// Total vorticity of the sheet, sum_j A_j gamma_j.
Vec3 sheet_total_vorticity(const Surface& s, const std::vector<double>& gamma);
// Linear impulse of the sheet (per unit density), 1/2 sum_j A_j c_j x gamma_j.
Vec3 sheet_impulse(const Surface& s, const std::vector<double>& gamma);
// Outer slip u+ - u- = gamma x n of each panel (with u- = 0 the fluid-side tangential velocity).
std::vector<Vec3> sheet_slip(const Surface& s, const std::vector<double>& gamma);

// The sheet's velocity at points by a direct sum over panels: exact within `near_distance` of a
// panel's centroid, its centroid point source beyond. For checks and small meshes (O(N M)).
std::vector<Vec3> sheet_velocity_direct(const Surface& s, const std::vector<double>& gamma,
                                        const Points& points, double near_distance);

}  // namespace vortex::bodies
