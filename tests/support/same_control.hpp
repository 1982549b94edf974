#pragma once
// Particle control's results on the host and on the device compared (ParticleControlOptions::
// backend): the same counts and positions, the strengths to rounding, the totals kept.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "vortex/diagnostics.hpp"
#include "vortex/particle_control.hpp"

namespace vortex::testing {

// The host's and the device's results agree: the same counts and positions, the strengths to
// rounding, and every candidate decided by one of them.
inline void expect_same_control(const ParticleSet& host, const ParticleSet& device,
                                const ParticleControlStats& h, const ParticleControlStats& d) {
  EXPECT_EQ(d.removed, h.removed);
  EXPECT_EQ(d.merged, h.merged);
  EXPECT_EQ(d.kept, h.kept);
  EXPECT_EQ(d.signed_shares, h.signed_shares);
  ASSERT_EQ(device.size(), host.size());
  double largest = 0, worst = 0;
  for (std::size_t i = 0; i < host.size(); ++i) {
    ASSERT_EQ(device.x[i], host.x[i]);
    ASSERT_EQ(device.y[i], host.y[i]);
    ASSERT_EQ(device.z[i], host.z[i]);
    largest = std::max(largest, host.strength(i));
    worst = std::max({worst, std::abs(device.gx[i] - host.gx[i]),
                      std::abs(device.gy[i] - host.gy[i]), std::abs(device.gz[i] - host.gz[i])});
  }
  EXPECT_LE(worst, 1e-12 * largest);
  const Diagnostics a = compute_diagnostics(host), b = compute_diagnostics(device);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(b.total_vorticity[k], a.total_vorticity[k], 1e-12 * a.sum_strength);
    EXPECT_NEAR(b.linear_impulse[k], a.linear_impulse[k], 1e-12 * a.sum_strength);
  }
  EXPECT_EQ(h.device_shares + h.host_shares + h.device_merges + h.host_merges, 0u);
  EXPECT_EQ(d.device_shares + d.host_shares, d.removed + d.merged + d.kept);
}

// One call on the host (the options' backend Cpu) and one on the device (Cuda), from `p`.
struct HostAndDevice {
  ParticleSet host, device;
  ParticleControlStats h, d;
};

inline HostAndDevice control_on_both(const ParticleSet& p, ParticleControlOptions o) {
  HostAndDevice r{p, p, {}, {}};
  o.backend = Backend::Cpu;
  r.h = control_particles(r.host, o);
  o.backend = Backend::Cuda;
  r.d = control_particles(r.device, o);
  return r;
}

}  // namespace vortex::testing
