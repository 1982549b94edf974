#pragma once
// The near corrections of one panel's rows of the boundary-element operator
// (vortex/bodies/bem_near_field.hpp): the sum over the panel's blocks k of correction_k times the
// sheet of its source panel j_k, (gamma[2 j_k], gamma[2 j_k + 1]), in the two tangential rows and
// the normal row. The host adds a panel's blocks one after another onto its rows; a
// GPU warp gives each lane every 32nd block and sums the lanes' parts.

#include <cstddef>

#include "vortex/math/hd.hpp"

namespace vortex {

// The blocks of every panel, as NearField keeps them: panel i's are [offsets[i], offsets[i + 1]).
struct BemNearBlocksView {
  const std::size_t* offsets = nullptr;
  const int* j = nullptr;              // source panel
  const double* tangential = nullptr;  // 4 a block: rows 0, 1 by columns 0, 1
  const double* normal = nullptr;      // 2 a block: row 2 by columns 0, 1
};

// Adds to rows[0..2] the blocks first, first + stride, ... before `end`.
VORTEX_HD void add_bem_near_rows(const BemNearBlocksView& b, std::size_t first, std::size_t end,
                                 std::size_t stride, const double* gamma, double rows[3]) {
  for (std::size_t k = first; k < end; k += stride) {
    const double g0 = gamma[2 * b.j[k]], g1 = gamma[2 * b.j[k] + 1];
    const double* t = b.tangential + 4 * k;
    rows[0] += t[0] * g0 + t[1] * g1;
    rows[1] += t[2] * g0 + t[3] * g1;
    rows[2] += b.normal[2 * k] * g0 + b.normal[2 * k + 1] * g1;
  }
}

}  // namespace vortex
