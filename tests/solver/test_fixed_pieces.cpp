// The passes in fixed pieces (vortex/fixed_pieces.hpp): the pieces cover every item once, and a
// selection in order equals the serial filter, whatever n and the threads.

#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include <omp.h>

#include "vortex/fixed_pieces.hpp"

namespace vortex {
namespace {

TEST(FixedPieces, CoverEveryItemOnce) {
  for (std::size_t n : {0ul, 1ul, 255ul, 256ul, 257ul, 1000003ul}) {
    EXPECT_EQ(piece_start(n, 0), 0u);
    EXPECT_EQ(piece_start(n, kFixedPieces), n);
    for (int k = 0; k < kFixedPieces; ++k) EXPECT_LE(piece_start(n, k), piece_start(n, k + 1));
  }
}

TEST(FixedPieces, SelectionInOrderEqualsTheSerialFilter) {
  // Items kept by a rule that leaves long runs and single items: i % 7 == 3 or i in [5000, 9000).
  const auto keep = [](std::size_t i) { return i % 7 == 3 || (i >= 5000 && i < 9000); };
  for (std::size_t n : {0ul, 1ul, 4ul, 255ul, 257ul, 100001ul, 300007ul})
    for (int threads : {1, 2, 3}) {
      omp_set_num_threads(threads);
      std::vector<int> serial{-1, -2};  // appended after what the vector holds
      for (std::size_t i = 0; i < n; ++i)
        if (keep(i)) serial.push_back(static_cast<int>(i));
      std::vector<int> selected{-1, -2};
      select_in_order(n, keep, selected);
      EXPECT_EQ(selected, serial) << "n " << n << ", " << threads << " threads";
    }
}

}  // namespace
}  // namespace vortex
