// place_in_order: every picked index gets its rank among the picked ones (counted directly), the
// others kNotPicked, sized() hears the total once, and the same holds on any thread count.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <vector>

#include <omp.h>

#include "vortex/place_in_order.hpp"

namespace vortex {
namespace {

// Ranks of [0, n) for a pick that leaves gaps and runs of every length, on `threads` threads.
std::vector<std::size_t> ranks(std::size_t n, int threads, std::size_t* total, int* sized_calls) {
  const auto pick = [](std::size_t i) { return (i * 7919) % 13 < 5 || (i / 1000) % 3 == 1; };
  std::vector<std::size_t> rank(n, 12345), placed;
  *sized_calls = 0;
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  *total = place_in_order(
      n, pick,
      [&](std::size_t count) {
        ++*sized_calls;
        placed.assign(count, n);
      },
      [&](std::size_t i, std::size_t r) {
        rank[i] = r;
        if (r != kNotPicked) placed[r] = i;
      });
  omp_set_num_threads(saved);
  // The reference: one pass in index order.
  std::size_t next = 0;
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(rank[i], pick(i) ? next : kNotPicked) << i;
    if (pick(i)) EXPECT_EQ(placed[next++], i);
  }
  EXPECT_EQ(*total, next);
  return rank;
}

TEST(PlaceInOrder, RanksFollowTheIndicesOnAnyThreadCount) {
  for (const std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{17}, std::size_t{20000}}) {
    std::size_t one_total = 0, three_total = 0;
    int one_calls = 0, three_calls = 0;
    const std::vector<std::size_t> one = ranks(n, 1, &one_total, &one_calls);
    const std::vector<std::size_t> three = ranks(n, 3, &three_total, &three_calls);
    EXPECT_EQ(one, three);
    EXPECT_EQ(one_total, three_total);
    EXPECT_EQ(one_calls, 1);
    EXPECT_EQ(three_calls, 1);
    if (n == 20000) EXPECT_GT(one_total, 7000u);  // picks: 5/13 and a third of the thousands
  }
}

TEST(PlaceInOrder, OnTheCallingThreadAlone) {
  std::vector<int> thread(100, -1);
  const std::size_t total = place_in_order(
      100, [](std::size_t i) { return i % 2 == 0; }, [](std::size_t) {},
      [&](std::size_t i, std::size_t) { thread[i] = omp_get_thread_num(); }, false);
  EXPECT_EQ(total, 50u);
  EXPECT_TRUE(std::all_of(thread.begin(), thread.end(), [](int t) { return t == 0; }));
}

}  // namespace
}  // namespace vortex
