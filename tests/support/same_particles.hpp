#pragma once
// Two particle sets compared array by array (positions, strengths, cores), for round trips through
// files and adapters and for runs that must give the same particles.

#include <gtest/gtest.h>

#include <vector>

#include "vortex/particles.hpp"

namespace vortex::testing {

// check(name, a's array, b's array) for each of the seven arrays of a particle set.
template <class Check>
void for_each_particle_array(const ParticleSet& a, const ParticleSet& b, Check&& check) {
  check("x", a.x, b.x);
  check("y", a.y, b.y);
  check("z", a.z, b.z);
  check("gx", a.gx, b.gx);
  check("gy", a.gy, b.gy);
  check("gz", a.gz, b.gz);
  check("sigma", a.sigma, b.sigma);
}

// Every array of `got` equals that of `want`, value by value.
inline void expect_same_particles(const ParticleSet& got, const ParticleSet& want) {
  for_each_particle_array(
      got, want, [](const char* name, const std::vector<double>& g, const std::vector<double>& w) {
        EXPECT_EQ(g, w) << name;
      });
}

}  // namespace vortex::testing
