#pragma once
// Fixed-radius neighbour search over the library's VAMSplit k-d tree.
//
//   vortex::NeighborSearch search(particles);          // builds the tree once
//   std::vector<int> found;
//   search.query(x, y, z, radius, found);               // caller indices, sorted
//   vortex::NeighborLists lists = search.all_within(particles, radius);  // every particle, OpenMP
//
// The tree's tight boxes prune every subtree whose box is farther than the radius. Results are
// sorted by caller index, so that they do not depend on the tree layout or the thread count.

#include <cstddef>
#include <vector>

#include "vortex/kdtree.hpp"
#include "vortex/particles.hpp"

namespace vortex {

// Neighbours of query i are indices[offsets[i] .. offsets[i+1]) (caller indices, ascending).
struct NeighborLists {
  std::vector<std::size_t> offsets{0};
  std::vector<int> indices;

  std::size_t size() const { return offsets.size() - 1; }
  std::size_t count(std::size_t i) const { return offsets[i + 1] - offsets[i]; }
  const int* begin(std::size_t i) const { return indices.data() + offsets[i]; }
  const int* end(std::size_t i) const { return indices.data() + offsets[i + 1]; }
};

class NeighborSearch {
 public:
  NeighborSearch() = default;
  // Copies the points (in tree order, for locality) and builds the tree.
  explicit NeighborSearch(PointsView points, int bucket = 16);

  std::size_t size() const { return x_.size(); }

  // Appends to `out` the indices of all points with |p - q| <= radius, in ascending order (the
  // point itself included when q is one of the points). `out` is cleared first.
  void query(double qx, double qy, double qz, double radius, std::vector<int>& out) const;

  // Index of the point nearest to q and its squared distance; -1 for an empty set.
  int nearest(double qx, double qy, double qz, double* dist2 = nullptr) const;

  // Neighbour lists of every query point, in parallel.
  NeighborLists all_within(PointsView queries, double radius) const;

 private:
  KdTree tree_;
  std::vector<double> x_, y_, z_;  // tree order
};

}  // namespace vortex
