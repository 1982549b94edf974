// The grid neighbour search against brute force: every radius up to a few cells, points on cell
// faces and duplicates included, queries inside and outside the cloud; and a rebuild into the
// same storage; a parallel build against a serial one.

#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include "vortex/grid_search.hpp"

namespace vortex {
namespace {

std::vector<int> brute_force(const Points& p, double qx, double qy, double qz, double radius) {
  std::vector<int> found;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double dx = p.x[i] - qx, dy = p.y[i] - qy, dz = p.z[i] - qz;
    if (dx * dx + dy * dy + dz * dz <= radius * radius) found.push_back(static_cast<int>(i));
  }
  return found;
}

TEST(GridSearch, MatchesBruteForce) {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> u(-1, 1);
  const double cell = 0.125;
  Points p;
  for (int i = 0; i < 800; ++i) p.push_back(u(rng), u(rng), u(rng));
  for (int i = 0; i < 40; ++i) p.push_back(cell * (i % 7 - 3), cell * (i % 5 - 2), cell * (i % 3));
  p.push_back(p.x[5], p.y[5], p.z[5]);  // a duplicate point
  GridSearch grid;
  grid.rebuild(p, cell);
  ASSERT_EQ(grid.size(), p.size());
  std::vector<int> found;
  for (double radius : {0.0, 0.05, cell, 0.3}) {
    for (std::size_t q = 0; q < 120; ++q) {
      // Points of the set (also those on cell faces), and points anywhere, some off the cloud.
      const bool own = q < 60;
      const std::size_t k = own ? (q * 14) % p.size() : 0;
      const double qx = own ? p.x[k] : 1.5 * u(rng), qy = own ? p.y[k] : 1.5 * u(rng),
                   qz = own ? p.z[k] : 1.5 * u(rng);
      grid.query(qx, qy, qz, radius, found);
      EXPECT_EQ(found, brute_force(p, qx, qy, qz, radius)) << "radius " << radius << " query " << q;
    }
  }
  // A query at distance exactly `radius` along an axis from a point on a cell face finds it.
  grid.query(p.x[800] + cell, p.y[800], p.z[800], cell, found);
  EXPECT_EQ(found, brute_force(p, p.x[800] + cell, p.y[800], p.z[800], cell));
  EXPECT_NE(std::find(found.begin(), found.end(), 800), found.end());

  // A smaller set in the same storage.
  Points few;
  few.push_back(0, 0, 0);
  few.push_back(0.01, 0, 0);
  grid.rebuild(few, cell);
  grid.query(0, 0, 0, 0.02, found);
  EXPECT_EQ(found, (std::vector<int>{0, 1}));
  grid.rebuild(Points{}, cell);
  grid.query(0, 0, 0, 1, found);
  EXPECT_TRUE(found.empty());
  EXPECT_THROW(grid.rebuild(few, 0.0), std::invalid_argument);
}

// Sets larger than one thread's part are sorted, and their cells entered in the table, on all
// threads: the same answers in the same order for any thread count (three threads: a part left
// over in the pairwise merges).
TEST(GridSearch, ParallelBuildMatchesTheSerialOne) {
  std::mt19937_64 rng(22);
  std::uniform_real_distribution<double> u(-1, 1);
  Points p;
  for (int i = 0; i < 100000; ++i) p.push_back(u(rng), u(rng), u(rng));
  const int saved = omp_get_max_threads();
  GridSearch one, three;
  omp_set_num_threads(1);
  one.rebuild(p, 0.05);
  omp_set_num_threads(3);
  three.rebuild(p, 0.05);
  omp_set_num_threads(saved);
  std::vector<int> a, b;
  for (std::size_t q = 0; q < p.size(); q += 997) {
    one.query(p.x[q], p.y[q], p.z[q], 0.05, a);
    three.query(p.x[q], p.y[q], p.z[q], 0.05, b);
    EXPECT_EQ(a, b);
    EXPECT_EQ(b, brute_force(p, p.x[q], p.y[q], p.z[q], 0.05));
  }
}

// The points lie sorted by cell (i, j, k), then by index: by the radix sort of packed cells where
// the cells' ranges fit in 64 bits (cells of 0.5: 6 bits, one pass; of 0.05: 18 bits, two), by the
// comparison sort where they do not (cells of 1e-7 over a span of 2: 25 bits a dimension), on one
// thread and on three.
TEST(GridSearch, PointsAreSortedByCellThenIndex) {
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> u(-1, 1);
  Points p;
  for (int i = 0; i < 80000; ++i) p.push_back(u(rng), u(rng), u(rng));
  for (int i = 0; i < 200; ++i) p.push_back(p.x[i], p.y[i], p.z[i]);  // shared cells
  const int saved = omp_get_max_threads();
  for (double cell : {0.5, 0.05, 1e-7})
    for (int threads : {1, 3}) {
      omp_set_num_threads(threads);
      GridSearch grid;
      grid.rebuild(p, cell);
      omp_set_num_threads(saved);
      const GridView v = grid.view();
      ASSERT_EQ(v.size, p.size());
      std::vector<std::array<long long, 4>> expected(p.size());
      for (std::size_t q = 0; q < p.size(); ++q)
        expected[q] = {static_cast<long long>(std::floor(p.x[q] / cell)),
                       static_cast<long long>(std::floor(p.y[q] / cell)),
                       static_cast<long long>(std::floor(p.z[q] / cell)),
                       static_cast<long long>(q)};
      std::sort(expected.begin(), expected.end());
      std::size_t wrong = 0;
      for (std::size_t s = 0; s < v.size; ++s) {
        wrong += v.index[s] != expected[s][3];
        wrong += v.x[s] != p.x[v.index[s]];
      }
      EXPECT_EQ(wrong, 0u) << "cell " << cell << ", " << threads << " threads";
      // The cells list each run of points of one cell, with its k, and follow one another.
      std::size_t bad_cells = 0;
      for (std::size_t c = 0; c < v.cell_count; ++c) {
        const auto begin = static_cast<std::size_t>(v.cells[c].begin);
        const auto end = static_cast<std::size_t>(v.cells[c + 1].begin);
        bad_cells += !(begin < end) || v.cells[c].k != expected[begin][2];
        for (std::size_t s = begin; s < end; ++s)
          for (int d = 0; d < 3; ++d) bad_cells += expected[s][d] != expected[begin][d];
        if (c > 0) {
          const auto before = static_cast<std::size_t>(v.cells[c - 1].begin);
          bad_cells += std::equal(expected[before].begin(), expected[before].begin() + 3,
                                  expected[begin].begin());
        }
      }
      EXPECT_EQ(v.cells[v.cell_count].begin, static_cast<std::int32_t>(p.size()));
      EXPECT_EQ(bad_cells, 0u) << "cell " << cell << ", " << threads << " threads";
      // Queries of one and a half cells through the rows' table find what brute force finds.
      std::vector<int> found;
      for (std::size_t q = 0; q < p.size(); q += 997) {
        const double r = 1.5 * cell;
        grid.query(p.x[q], p.y[q], p.z[q], r, found);
        std::vector<int> brute;
        for (std::size_t j = 0; j < p.size(); ++j) {
          const double dx = p.x[j] - p.x[q], dy = p.y[j] - p.y[q], dz = p.z[j] - p.z[q];
          if (dx * dx + dy * dy + dz * dz <= r * r) brute.push_back(static_cast<int>(j));
        }
        EXPECT_EQ(found, brute) << "point " << q << ", cell " << cell;
      }
    }
}

}  // namespace
}  // namespace vortex
