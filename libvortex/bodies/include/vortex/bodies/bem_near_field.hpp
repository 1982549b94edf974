#pragma once
// The near field of the boundary-element operator, kept sparse.
//
// Row r of panel i (r = 0, 1: the tangents t_i1, t_i2; r = 2: the normal n_i) and column b of
// panel j (the sheet component along t_jb) hold the panel-i average of row_r . (grad Phi_j x t_jb)
// = row_r . (t_jb x K_j) / (4 pi). The far field approximates K_j by point sources at the
// source rule's points and averages over the target rule's points (what the treecode computes);
// for panels closer than the near radius each block also stores the exact value (K_j in closed
// form averaged with the near rule, subdivided once for touching panels) and the correction
// exact - point form. The self block is the principal value plus, in the tangential rows, the
// inner-side jump 1/2 (n x gamma) . t: [[0, -1/2], [1/2, 0]].

#include <cstddef>
#include <vector>

#include "vortex/bodies/quadrature.hpp"
#include "vortex/bodies/surface.hpp"

namespace vortex::bodies {

struct BemRules {
  TriangleRule target;  // where each panel's rows are averaged in the far field
  TriangleRule source;  // the sheet's point sources
  TriangleRule near;    // the average of exact near blocks
};

// The blocks of panel i are [offsets[i], offsets[i + 1]); block k's arrays hold, row-major
// ([r][b] at 2 r + b), its exact value and its correction split in the tangential rows (what every
// GMRES product reads) and the normal row (read only for the normal velocity).
struct NearField {
  std::vector<std::size_t> offsets{0};
  std::vector<int> j;              // the source panel
  std::vector<double> exact;       // 6 per block: rows 0..2
  std::vector<double> tangential;  // 4 per block: correction rows 0, 1
  std::vector<double> normal;      // 2 per block: correction row 2
  double radius = 0;

  std::size_t size() const { return offsets.size() - 1; }
};

// Point-form block of source panel j averaged over target panel i (the treecode's value for the
// pair, with coincident points skipped as the singular kernel does).
void point_block(const Surface& s, const BemRules& rules, int i, int j, double out[3][2]);

// Exact block of panel j on panel i (see above).
void exact_block(const Surface& s, const BemRules& rules, int i, int j, double out[3][2]);

// All blocks of panels whose centroids are within `radius` (OpenMP over panels).
NearField build_near_field(const Surface& s, const BemRules& rules, double radius);

}  // namespace vortex::bodies
