#pragma once
// The boundary-element solve's preconditioner (docs/methods/bodies.md section 2) as flat arrays,
// read alike by the host's loops and the GPU's kernels:
//
//   M^-1 v = P y + B (v - (A P) y),   y = A_c^-1 P^T v
//
// B is block Jacobi: the unknowns of a cluster of nearby panels times the inverse of their exact
// near block. P is the coarse level: each panel lies in one aggregate, and its two unknowns hold
// the aggregate's kCoarseFields smooth fields there; A P (one operator product per column) and
// the inverse of A_c = P^T A P are kept from the setup. Without aggregates M^-1 = B.
//
// Each function below returns one entry's sum over the terms first, first + stride, ...: the host
// sums all terms (first 0, stride 1), a GPU warp gives each lane every 32nd and sums the lanes.

#include <cstddef>

#include "vortex/math/hd.hpp"

namespace vortex {

inline constexpr int kCoarseFields = 6;

struct BemPreconditionerView {
  int panels = 0;
  // Cluster c's panels are cluster_panels[cluster_offsets[c] .. cluster_offsets[c + 1]); the
  // inverse of its block (2m x 2m for m panels, row-major, unknown 2 k + b of its k-th panel) is at
  // inverses + inverse_offsets[c].
  int clusters = 0;
  const int* cluster_offsets = nullptr;
  const int* cluster_panels = nullptr;
  const std::size_t* inverse_offsets = nullptr;
  const double* inverses = nullptr;
  // The coarse level (aggregates = 0: none). Aggregate a's panels are aggregate_panels[
  // aggregate_offsets[a] .. aggregate_offsets[a + 1]); fields[12 i + d] and fields[12 i + 6 + d]
  // are field d's two components at panel i (its aggregate's column 6 a + d of P). coarse_inverse
  // is A_c^-1 (n_c x n_c, row-major) and ap is A P (2 panels x n_c, row-major), n_c = 6 aggregates.
  int aggregates = 0;
  const int* aggregate_offsets = nullptr;
  const int* aggregate_panels = nullptr;
  const int* aggregate_of = nullptr;
  const double* fields = nullptr;
  const double* coarse_inverse = nullptr;
  const double* ap = nullptr;

  VORTEX_HD int coarse_size() const { return kCoarseFields * aggregates; }
};

// (P^T v) at column kCoarseFields a + d: over aggregate a's panels.
VORTEX_HD double bem_coarse_restrict(const BemPreconditionerView& m, int a, int d, int first,
                                     int stride, const double* v) {
  double sum = 0;
  for (int k = m.aggregate_offsets[a] + first; k < m.aggregate_offsets[a + 1]; k += stride) {
    const int i = m.aggregate_panels[k];
    const double* f = m.fields + 12 * static_cast<std::size_t>(i);
    sum += f[d] * v[2 * i] + f[kCoarseFields + d] * v[2 * i + 1];
  }
  return sum;
}

// Row r of A_c^-1 z.
VORTEX_HD double bem_coarse_solve(const BemPreconditionerView& m, int r, int first, int stride,
                                  const double* z) {
  const int n = m.coarse_size();
  const double* row = m.coarse_inverse + static_cast<std::size_t>(r) * n;
  double sum = 0;
  for (int k = first; k < n; k += stride) sum += row[k] * z[k];
  return sum;
}

// Row r of (A P) y.
VORTEX_HD double bem_coarse_product(const BemPreconditionerView& m, std::size_t r, int first,
                                    int stride, const double* y) {
  const int n = m.coarse_size();
  const double* row = m.ap + r * n;
  double sum = 0;
  for (int k = first; k < n; k += stride) sum += row[k] * y[k];
  return sum;
}

// Unknown b (0, 1) of panel i of P y.
VORTEX_HD double bem_coarse_prolong(const BemPreconditionerView& m, int i, int b, const double* y) {
  const double* f = m.fields + 12 * static_cast<std::size_t>(i) + b * kCoarseFields;
  const double* yc = y + kCoarseFields * m.aggregate_of[i];
  double sum = 0;
  for (int d = 0; d < kCoarseFields; ++d) sum += f[d] * yc[d];
  return sum;
}

// Row r (0 .. 2m - 1) of cluster c's block solve of v.
VORTEX_HD double bem_cluster_solve(const BemPreconditionerView& m, int c, int r, int first,
                                   int stride, const double* v) {
  const int begin = m.cluster_offsets[c], size = 2 * (m.cluster_offsets[c + 1] - begin);
  const double* row = m.inverses + m.inverse_offsets[c] + static_cast<std::size_t>(r) * size;
  double sum = 0;
  for (int k = first; k < size; k += stride)
    sum += row[k] * v[2 * m.cluster_panels[begin + k / 2] + k % 2];
  return sum;
}

}  // namespace vortex
