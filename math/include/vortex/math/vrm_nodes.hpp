#pragma once
// The free lattice nodes around a VRM owner without a solution (vortex/vrm.hpp), written once for
// the host's insertion proposals and the device's: the nodes h (i, j, k) within R of the owner that
// no particle within R holds within the hole distance. The nodes are those of the cube of
// (2 r + 1)^3 around the owner's nearest node (r = ceil(R / h)), walked with the first offset
// outermost; a node's place in that walk is its bit in the device's mask, so that the host reads
// a mask back in the order it walks the nodes itself.

#include <cmath>
#include <cstdint>

#include "vortex/math/hd.hpp"

namespace vortex::vrm {

// The mask of a cube holds at most this many 64-bit words (r <= 3); wider cubes are walked by
// the host alone.
constexpr int kMaxNodeWords = 8;

struct NodeCube {
  long ci = 0, cj = 0, ck = 0;  // the owner's nearest node
  int r = 0;                    // the cube's half width, in nodes
  VORTEX_HD int width() const { return 2 * r + 1; }
  VORTEX_HD int nodes() const { return width() * width() * width(); }
  VORTEX_HD int words() const { return (nodes() + 63) / 64; }
  // The node's offsets from (ci, cj, ck) at place `bit` of the walk.
  VORTEX_HD void offsets(int bit, long& di, long& dj, long& dk) const {
    const int w = width();
    di = bit / (w * w) - r;
    dj = (bit / w) % w - r;
    dk = bit % w - r;
  }
};

VORTEX_HD NodeCube node_cube(double x, double y, double z, double h, double radius) {
  NodeCube c;
  c.r = static_cast<int>(ceil(radius / h));
  c.ci = lround(x / h);
  c.cj = lround(y / h);
  c.ck = lround(z / h);
  return c;
}

// Calls take(bit, di, dj, dk, nx, ny, nz) for every node of the cube around (x, y, z) within
// `radius` of it that none of the m particles position(q, out) (those within R) holds within
// `hole`, in the walk's order.
template <class Position, class Take>
VORTEX_HD void free_nodes(const NodeCube& c, double x, double y, double z, double h, double radius,
                          double hole, int m, const Position& position, const Take& take) {
  const int w = c.width();
  for (int bit = 0, at_i = 0; at_i < w; ++at_i)
    for (int at_j = 0; at_j < w; ++at_j)
      for (int at_k = 0; at_k < w; ++at_k, ++bit) {
        const long di = at_i - c.r, dj = at_j - c.r, dk = at_k - c.r;
        const double nx = (c.ci + di) * h, ny = (c.cj + dj) * h, nz = (c.ck + dk) * h;
        const double ex = nx - x, ey = ny - y, ez = nz - z;
        if (ex * ex + ey * ey + ez * ez > radius * radius * (1 - 1e-9)) continue;
        bool held = false;
        for (int q = 0; q < m && !held; ++q) {
          double p[3];
          position(q, p);
          const double dx = p[0] - nx, dy = p[1] - ny, dz = p[2] - nz;
          held = dx * dx + dy * dy + dz * dz <= hole * hole;
        }
        if (!held) take(bit, di, dj, dk, nx, ny, nz);
      }
}

// The nodes of a mask (c.words() words) in the walk's order: take(di, dj, dk, nx, ny, nz).
template <class Take>
VORTEX_HD void masked_nodes(const NodeCube& c, const std::uint64_t* mask, double h,
                            const Take& take) {
  const int words = c.words();
  for (int word = 0; word < words; ++word)
    for (std::uint64_t bits = mask[word]; bits != 0; bits &= bits - 1) {
      int low = 0;
      while (((bits >> low) & 1u) == 0) ++low;
      long di, dj, dk;
      c.offsets(64 * word + low, di, dj, dk);
      take(di, dj, dk, (c.ci + di) * h, (c.cj + dj) * h, (c.ck + dk) * h);
    }
}

}  // namespace vortex::vrm
