#pragma once
// Fixed-radius neighbour search on a uniform grid of cubic cells, of which only the occupied ones
// are stored (their rows in a hash table). For many queries of a radius about the cell size (the
// VRM's neighbourhoods) it is cheaper than a tree walk: 27 cells and no box tests. The answers are
// NeighborSearch::query's: the same distance test on the same coordinates, indices ascending.
//
//   vortex::GridSearch grid;
//   grid.rebuild(points, cell);                        // reuses the storage of earlier builds
//   grid.query(x, y, z, radius, found);                // any radius; cheapest up to `cell`

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "vortex/math/grid_cells.hpp"
#include "vortex/particles.hpp"

namespace vortex {

class GridSearch {
 public:
  // Sorts the points into cells of edge `cell` (> 0), on all OpenMP threads. Throws
  // std::invalid_argument for a point more than 2^30 cells from the origin.
  void rebuild(PointsView points, double cell);

  std::size_t size() const { return index_.size(); }

  // The indices of all points with |p - q|^2 <= radius^2, ascending; `out` is cleared first.
  void query(double qx, double qy, double qz, double radius, std::vector<int>& out) const;

  // The built grid's arrays (valid until the next rebuild), for a search elsewhere (the device's).
  GridView view() const {
    return {cell_,
            rows_.data(),
            rows_.size(),
            cells_.data(),
            cells_.empty() ? 0 : cells_.size() - 1,
            x_.data(),
            y_.data(),
            z_.data(),
            index_.data(),
            index_.size()};
  }

 private:
  double cell_ = 1;
  std::vector<std::int32_t> index_;  // caller index of each sorted point
  std::vector<double> x_, y_, z_;    // sorted by cell
  std::vector<GridCell> cells_;      // the occupied cells in the sorted order, then the point count
  std::vector<GridRow> rows_;        // the rows' table: open addressing; end = -1 marks a free slot
  std::vector<std::size_t> part_offsets_;  // each thread's first cell while the cells are listed
  // Cells too far apart for packed keys: cell and caller index of each point, sorted.
  std::vector<std::array<std::int32_t, 4>> order_, sort_buffer_;
  std::vector<std::size_t> sort_bounds_;
  // The radix sort's packed cell keys (sorted, they list the cells and rows) and caller indices,
  // and its scratch.
  std::vector<std::uint64_t> keys_, key_buffer_;
  std::vector<std::int32_t> values_, value_buffer_;
  std::vector<std::size_t> counts_;
};

}  // namespace vortex
