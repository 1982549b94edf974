// The neighbour search against brute force.

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "support/draws.hpp"
#include "support/reference.hpp"
#include "vortex/neighbor_search.hpp"

namespace vortex {
namespace {

TEST(NeighborSearch, MatchesBruteForce) {
  testing::Draws u(3, -1, 1);
  Points pts;
  for (int i = 0; i < 700; ++i) pts.push_back(u(), u(), u());
  pts.push_back(pts.x[5], pts.y[5], pts.z[5]);  // a duplicate point
  const NeighborSearch search(pts);
  std::vector<int> found;
  for (double radius : {0.0, 0.05, 0.3, 5.0}) {
    for (int q = 0; q < 50; ++q) {
      const double qx = q < 10 ? pts.x[q] : u(), qy = q < 10 ? pts.y[q] : u(),
                   qz = q < 10 ? pts.z[q] : u();
      search.query(qx, qy, qz, radius, found);
      std::vector<int> expected;
      int nearest = -1;
      double best = 1e300;
      for (std::size_t i = 0; i < pts.size(); ++i) {
        const double d2 = (pts.x[i] - qx) * (pts.x[i] - qx) + (pts.y[i] - qy) * (pts.y[i] - qy) +
                          (pts.z[i] - qz) * (pts.z[i] - qz);
        if (d2 <= radius * radius) expected.push_back(static_cast<int>(i));
        if (d2 < best) best = d2, nearest = static_cast<int>(i);
      }
      EXPECT_EQ(found, expected) << "radius " << radius << " query " << q;
      double d2 = 0;
      EXPECT_EQ(search.nearest(qx, qy, qz, &d2), nearest);
      EXPECT_DOUBLE_EQ(d2, best);
    }
  }
  const NeighborLists lists = search.all_within(pts, 0.2);
  ASSERT_EQ(lists.size(), pts.size());
  search.query(pts.x[5], pts.y[5], pts.z[5], 0.2, found);
  EXPECT_EQ(std::vector<int>(lists.begin(5), lists.end(5)), found);
  EXPECT_TRUE(std::count(found.begin(), found.end(), 700) == 1);  // the duplicate is found

  const NeighborSearch empty{Points{}};
  search.query(0, 0, 0, 1, found);
  empty.query(0, 0, 0, 1, found);
  EXPECT_TRUE(found.empty());
  EXPECT_EQ(empty.nearest(0, 0, 0), -1);
}

}  // namespace
}  // namespace vortex
