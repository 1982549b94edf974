#pragma once
// Seeded random draws for the inputs of tests.

#include <cstdint>
#include <random>

namespace vortex::testing {

// Draws from std::mt19937_64(seed): uniform in [lo, hi) and standard normal, each from one
// distribution kept across calls, so that a set drawn here is the one drawn from the standard
// distributions directly.
class Draws {
 public:
  explicit Draws(std::uint64_t seed, double lo = 0, double hi = 1) : rng(seed), uniform_(lo, hi) {}
  double operator()() { return uniform_(rng); }
  double normal() { return normal_(rng); }

  std::mt19937_64 rng;  // for draws of other kinds

 private:
  std::uniform_real_distribution<double> uniform_;
  std::normal_distribution<double> normal_{0.0, 1.0};
};

}  // namespace vortex::testing
