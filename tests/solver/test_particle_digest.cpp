// The particle set's digest: equal sets give equal digests whatever the thread count, and a change
// of any one value in any array changes it (each value is mixed with its place by a bijection).
// The strongest particle's search, the same on any thread count.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>

#include "vortex/particles.hpp"

namespace vortex {
namespace {

ParticleSet make_set(std::size_t n) {
  ParticleSet p;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i);
    p.push_back(std::sin(t), std::cos(1.3 * t), 0.1 * t, 1e-3 * t, -2.0, std::sqrt(t), 0.05);
  }
  return p;
}

TEST(ParticleDigest, EqualSetsEqualDigestsOnAnyThreadCount) {
  const ParticleSet a = make_set(250000);  // large enough for the parallel loop
  const ParticleSet b = a;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::uint64_t one = digest(a);
  omp_set_num_threads(std::max(2, threads));
  EXPECT_EQ(digest(b), one);
  omp_set_num_threads(threads);
  EXPECT_NE(digest(ParticleSet{}), one);
}

TEST(ParticleDigest, AnyChangedValueChangesIt) {
  ParticleSet p = make_set(1000);
  const std::uint64_t base = digest(p);
  std::vector<double>* arrays[] = {&p.x, &p.y, &p.z, &p.gx, &p.gy, &p.gz, &p.sigma};
  for (std::vector<double>* a : arrays)
    for (std::size_t i : {std::size_t{0}, std::size_t{517}, std::size_t{999}}) {
      const double kept = (*a)[i];
      (*a)[i] = std::nextafter(kept, 10.0);  // the smallest change there is
      EXPECT_NE(digest(p), base) << "value " << i;
      (*a)[i] = kept;
      EXPECT_EQ(digest(p), base);
    }
  // The same values in another place, and a longer set, differ too.
  ParticleSet swapped = p;
  std::swap(swapped.x[3], swapped.x[4]);
  EXPECT_NE(digest(swapped), base);
  ParticleSet longer = p;
  longer.push_back(0, 0, 0, 0, 0, 0, 0.05);
  EXPECT_NE(digest(longer), base);
}

// The strongest particle: the first of the largest |Gamma|, the same on any thread count, and one
// past the end of an empty set.
TEST(ParticleStrongest, TheFirstOfTheLargestOnAnyThreadCount) {
  ParticleSet p = make_set(250000);
  for (std::size_t i = 0; i < p.size(); ++i) p.gx[i] = p.gy[i] = p.gz[i] = 1e-3;
  // Two equal largest strengths, far apart (in different pieces of the search), and one just
  // below them.
  p.gz[200000] = p.gz[31337] = 5.0;
  p.gz[31336] = 4.999999;
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  EXPECT_EQ(strongest(p), 31337u);
  omp_set_num_threads(std::max(2, threads));
  EXPECT_EQ(strongest(p), 31337u);
  omp_set_num_threads(threads);
  EXPECT_EQ(strongest(ParticleSet{}), 0u);
  const ParticleSet one = make_set(1);
  EXPECT_EQ(strongest(one), 0u);
}

}  // namespace
}  // namespace vortex
