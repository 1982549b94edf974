#pragma once
// A half-open range of particle indices in tree order: a tree node's particles, a merged run of
// near-field sources, a group of targets. The same record on the host and on the device.

namespace vortex {

struct IndexRange {
  int begin = 0, end = 0;
  constexpr int size() const { return end - begin; }
};

}  // namespace vortex
