#pragma once
// Passes over millions of particles in a fixed number of pieces, each done alone and the pieces
// then taken in order: sums, searches and selections that give the same result on any number of
// threads.

#include <array>
#include <cstddef>
#include <vector>

namespace vortex {

constexpr int kFixedPieces = 256;

// Where piece k of n items begins (piece kFixedPieces begins at n).
inline std::size_t piece_start(std::size_t n, int k) {
  return n * static_cast<std::size_t>(k) / kFixedPieces;
}

// The sum of piece_sum(begin, end) over the pieces of [0, n), the pieces taken in order: on all
// threads where n is large, the same sum on any number of them.
template <class T, class PieceSum>
T sum_in_pieces(std::size_t n, PieceSum&& piece_sum) {
  std::array<T, kFixedPieces> part{};
#pragma omp parallel for schedule(static) if (n > 16384)
  for (int k = 0; k < kFixedPieces; ++k)
    part[k] = piece_sum(piece_start(n, k), piece_start(n, k + 1));
  T total{};
  for (const T& t : part) total += t;
  return total;
}

// Appends to `out` the i in [0, n) for which keep(i) holds, ascending: each piece counts its own,
// then writes them after the pieces before it, on all threads where n is large.
template <class T, class Keep>
void select_in_order(std::size_t n, Keep&& keep, std::vector<T>& out) {
  std::array<std::size_t, kFixedPieces + 1> at{};
  const bool parallel = n > 100000;
#pragma omp parallel for schedule(static) if (parallel)
  for (int k = 0; k < kFixedPieces; ++k) {
    std::size_t count = 0;
    for (std::size_t i = piece_start(n, k); i < piece_start(n, k + 1); ++i)
      count += keep(i) ? 1 : 0;
    at[k + 1] = count;
  }
  at[0] = out.size();
  for (int k = 0; k < kFixedPieces; ++k) at[k + 1] += at[k];
  out.resize(at[kFixedPieces]);
#pragma omp parallel for schedule(static) if (parallel)
  for (int k = 0; k < kFixedPieces; ++k) {
    std::size_t w = at[k];
    for (std::size_t i = piece_start(n, k); i < piece_start(n, k + 1); ++i)
      if (keep(i)) out[w++] = static_cast<T>(i);
  }
}

}  // namespace vortex
