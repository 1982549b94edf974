#pragma once
// A VRM step on one part of a particle set split over several processes (the distributed
// toolkit's, libvortex/mpi): the part holds its own particles, then copies of the other parts'
// particles within 2 R of them with zero strength (neighbours, never owners). The step's rounds
// are the whole set's: the strongest |Gamma|, whether an owner is left unsolved and the nodes
// inserted are agreed over the parts through these hooks, so that each owner solves with the
// neighbours it has in the whole set, and each part's owners hand their strengths to the same
// particles as in one step of the whole set (docs/methods/distributed.md).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace vortex::detail {

// The position of a lattice node: nodes are h * (i, j, k) with |i|, |j|, |k| < 2^20, keyed by the
// three 21-bit offsets i + 2^20 ... (vrm_step::node_key).
inline void node_position(std::uint64_t key, double h, double& x, double& y, double& z) {
  x = (static_cast<long>((key >> 42) & 0x1FFFFF) - (1l << 20)) * h;
  y = (static_cast<long>((key >> 21) & 0x1FFFFF) - (1l << 20)) * h;
  z = (static_cast<long>(key & 0x1FFFFF) - (1l << 20)) * h;
}

struct VrmParts {
  std::function<double(double)> largest;  // the largest of all parts' values
  std::function<bool(bool)> any;          // whether any part's value is true
  // A round's new lattice nodes. In: this part's (node keys, each with the smallest core radius
  // of its proposers here). Out: the nodes this part inserts, those new over all parts within its
  // reach, each with the smallest core radius of all its proposers. Returns how many nodes are new
  // over all parts. Collective: every part calls it every round.
  std::function<std::size_t(std::vector<std::uint64_t>& keys, std::vector<double>& sigma)> merge;
};

}  // namespace vortex::detail
