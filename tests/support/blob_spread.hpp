#pragma once
// The check of a diffused blob of vorticity: its second moment grows by 2 nu t per dimension.

#include <gtest/gtest.h>

#include <array>

#include "vortex/diagnostics.hpp"
#include "vortex/particles.hpp"

namespace vortex::testing {

// The second moment per dimension of p's z strength (z_vorticity_second_moments) has grown by
// `growth` (2 nu t) since it was `start`: within 2 %, and within 1e-3 (the schemes measure about
// 1e-4).
inline void expect_moments_grew_by(const ParticleSet& p, const std::array<double, 3>& start,
                                   double growth) {
  const auto m2 = z_vorticity_second_moments(p);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR((m2[k] - start[k]) / growth, 1.0, 0.02) << k;
  for (int k = 0; k < 3; ++k) EXPECT_NEAR((m2[k] - start[k]) / growth, 1.0, 1e-3) << k;
}

}  // namespace vortex::testing
