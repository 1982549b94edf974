// The shapes the host lays out for the device's trees (tree/tree_shape.hpp; host code, no device
// needed): each depth's cut positions divide the next depth's pieces, and the depth from which
// blocks finish the cuts is the first whose pieces fit a block.

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "tree/tree_shape.hpp"
#include "vortex/gpu/device_tree.hpp"

namespace vortex {
namespace {

namespace g = vortex::gpu;

// The first depth cut inside blocks (host code): every piece there holds at most the block's
// points and, at every later depth, at most kFinishPieces pieces; the depth before does not.
TEST(DeviceTreeFinish, DepthIsTheFirstWhosePiecesFitABlock) {
  for (const auto& [n, bucket, arity] :
       {std::array<int, 3>{1000000, 32, 8}, std::array<int, 3>{1000000, 128, 8},
        std::array<int, 3>{5003, 1, 2}, std::array<int, 3>{4000, 64, 4},
        std::array<int, 3>{300000, 16, 2}}) {
    SCOPED_TRACE(std::to_string(n) + " points, bucket " + std::to_string(bucket));
    const g::TreeShape s = detail::make_tree_shape(n, bucket, arity);
    auto fits = [&](int d, int max_points) {
      for (int k = s.depth_start[d]; k < s.depth_start[d + 1]; ++k) {
        if (s.piece_end[k] - s.piece_begin[k] > max_points) return false;
        for (int e = d + 1; e < s.depths(); ++e) {
          int inside = 0;
          for (int j = s.depth_start[e]; j < s.depth_start[e + 1]; ++j)
            inside += s.piece_begin[j] >= s.piece_begin[k] && s.piece_begin[j] < s.piece_end[k];
          if (inside > g::kFinishPieces) return false;
        }
      }
      return true;
    };
    for (int max_points : {0, 512, g::kFinishPoints}) {
      const int d = g::block_finish_depth(s, max_points);
      ASSERT_LE(d, s.depths());
      if (d < s.depths()) EXPECT_TRUE(fits(d, max_points));
      if (d > 0) EXPECT_FALSE(fits(d - 1, max_points));
    }
    EXPECT_EQ(g::block_finish_depth(s, 0), s.depths());  // no block takes a piece
    if (n > g::kFinishPoints) EXPECT_GT(g::block_finish_depth(s, g::kFinishPoints), 0);
  }
}

// Each cut piece's position lies inside it and is where the next depth's pieces divide it; an
// uncut piece's position is its end and it passes to the next depth whole.
TEST(DeviceTreeShape, CutPositionsDivideTheNextDepthsPieces) {
  for (const auto& [n, bucket, arity] :
       {std::array<int, 3>{1000000, 32, 8}, std::array<int, 3>{5003, 1, 2},
        std::array<int, 3>{4000, 64, 4}, std::array<int, 3>{300001, 16, 2}}) {
    SCOPED_TRACE(std::to_string(n) + " points, bucket " + std::to_string(bucket));
    const g::TreeShape s = detail::make_tree_shape(n, bucket, arity);
    ASSERT_EQ(s.piece_mid.size(), s.piece_begin.size());
    for (int d = 0; d < s.depths(); ++d) {
      std::vector<int> bounds;  // the next depth's piece boundaries inside this depth's
      for (int k = s.depth_start[d]; k < s.depth_start[d + 1]; ++k) {
        const bool cut = s.piece_first_chunk[k] >= 0;
        if (cut) {
          EXPECT_GT(s.piece_mid[k], s.piece_begin[k]);
          EXPECT_LT(s.piece_mid[k], s.piece_end[k]);
        } else {
          EXPECT_EQ(s.piece_mid[k], s.piece_end[k]);
        }
        bounds.push_back(s.piece_begin[k]);
        if (cut) bounds.push_back(s.piece_mid[k]);
      }
      if (d + 1 == s.depths()) continue;
      const std::vector<int> next(s.piece_begin.begin() + s.depth_start[d + 1],
                                  s.piece_begin.begin() + s.depth_start[d + 2]);
      EXPECT_EQ(next, bounds) << "depth " << d;
    }
  }
}

}  // namespace
}  // namespace vortex
