#pragma once
// W of the M2L by rotation (m2l_rotation.hpp) packed by its parity blocks, for a device whose
// threads each take a whole translation and unroll each degree's product over the pattern: every
// entry a warp-wide constant (gpu/far/local_m2l.cu).

#include <stdexcept>
#include <vector>

#include "vortex/math/hd.hpp"
#include "vortex/multipole/m2l_rotation.hpp"

namespace vortex::multipole {

namespace rotation {

// Where W can be nonzero. A degree's basis splits by two parities (the order's, and cos or sin
// against the degree's: class (m + n + [sin]) mod 2), and W maps each class onto itself, cos to cos
// and sin to sin in class 0, cos to sin and sin to cos in class 1; every other entry (r, c) of
// degree n is zero. Positions are the degree's own: cos m at j = m, sin m at j = n + m.
VORTEX_HD constexpr bool w_nonzero(int n, int r, int c) {
  const bool rs = r > n, cs = c > n;
  const int qr = ((rs ? r - n : r) + n + (rs ? 1 : 0)) & 1;
  const int qc = ((cs ? c - n : c) + n + (cs ? 1 : 0)) & 1;
  if (qr != qc) return false;
  return qr != 0 ? rs != cs : rs == cs;
}
// The entries w_nonzero keeps in degree n, and the start of degree n's among the degrees before it
// (the packed order: degree, row, column).
VORTEX_HD constexpr int packed_count(int n) {
  int k = 0;
  for (int r = 0; r < 2 * n + 1; ++r)
    for (int c = 0; c < 2 * n + 1; ++c) k += w_nonzero(n, r, c) ? 1 : 0;
  return k;
}
VORTEX_HD constexpr int packed_offset(int n) {
  int k = 0;
  for (int d = 0; d < n; ++d) k += packed_count(d);
  return k;
}

}  // namespace rotation

namespace detail {

// W in the packed order (packed_offset), in T, for a device that unrolls each degree's product
// over the pattern: zeros where the tables hold none. Throws std::logic_error where a table entry
// lies outside the pattern.
template <class T>
void pack_w(const rotation::Tables& t, T* out) {
  using rotation::kMaxDegree;
  std::vector<double> dense;
  for (int n = 0, k = 0; n <= kMaxDegree; ++n) {
    const int d = 2 * n + 1, o = n * n;
    dense.assign(static_cast<std::size_t>(d) * d, 0.0);
    for (int r = 0; r < d; ++r)
      for (int e = t.w_start[o + r]; e < t.w_start[o + r + 1]; ++e) {
        const int c = t.w_double[e].column - o;
        if (!rotation::w_nonzero(n, r, c))
          throw std::logic_error("m2l rotation: an entry of W outside its parity blocks");
        dense[r * d + c] = t.w_double[e].value;
      }
    for (int r = 0; r < d; ++r)
      for (int c = 0; c < d; ++c)
        if (rotation::w_nonzero(n, r, c)) out[k++] = static_cast<T>(dense[r * d + c]);
  }
}

}  // namespace detail

}  // namespace vortex::multipole
