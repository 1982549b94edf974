#pragma once
// Passes over millions of particles in a fixed number of pieces, each done alone and the pieces
// then taken in order: sums and searches that give the same result on any number of threads.

#include <cstddef>

namespace vortex {

constexpr int kFixedPieces = 256;

// Where piece k of n items begins (piece kFixedPieces begins at n).
inline std::size_t piece_start(std::size_t n, int k) {
  return n * static_cast<std::size_t>(k) / kFixedPieces;
}

}  // namespace vortex
