// The passes in fixed pieces (vortex/fixed_pieces.hpp): the pieces cover every item once, a
// selection in order equals the serial filter and a sum is the same, whatever n and the threads.

#include <gtest/gtest.h>

#include <cmath>
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

// A sum in pieces is the same bit for bit on any number of threads, and the exact sum to rounding
// (terms of both signs and many scales, against a long-double sum).
TEST(FixedPieces, SumInPiecesIsTheSameOnAnyThreadCount) {
  const std::size_t n = 300007;
  std::vector<double> term(n);
  long double exact = 0;
  for (std::size_t i = 0; i < n; ++i) {
    term[i] = std::sin(0.37 * static_cast<double>(i)) * std::pow(10.0, static_cast<double>(i % 7));
    exact += term[i];
  }
  const auto piece_sum = [&](std::size_t begin, std::size_t end) {
    double s = 0;
    for (std::size_t i = begin; i < end; ++i) s += term[i];
    return s;
  };
  omp_set_num_threads(1);
  const double one = sum_in_pieces<double>(n, piece_sum);
  for (int threads : {2, 3, 4}) {
    omp_set_num_threads(threads);
    EXPECT_EQ(sum_in_pieces<double>(n, piece_sum), one) << threads << " threads";
  }
  double scale = 0;
  for (double t : term) scale += std::abs(t);
  EXPECT_NEAR(one, static_cast<double>(exact), 1e-14 * scale);
  EXPECT_EQ(sum_in_pieces<double>(0, piece_sum), 0.0);
}

}  // namespace
}  // namespace vortex
