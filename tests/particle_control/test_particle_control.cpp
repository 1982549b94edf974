// Particle-count control: removal and merging conserve total vorticity and linear impulse, give the
// same result on any thread count, with a workspace and in any order of the particles, put no huge
// shares off a flat layer, and hand no strength through a wall.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <vector>

#include "support/draws.hpp"
#include "support/reference.hpp"
#include "support/same_particles.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/particle_control.hpp"

namespace vortex {
namespace {

TEST(ParticleControl, RemovalConservesVorticityAndImpulse) {
  testing::Draws u(9, -1, 1);
  ParticleSet p;
  for (int i = -4; i <= 4; ++i)
    for (int j = -4; j <= 4; ++j)
      for (int k = -4; k <= 4; ++k) {
        const double scale = (i + j + k) % 3 == 0 ? 1e-8 : 1.0;  // a third of them negligible
        p.push_back(0.25 * i + 0.02 * u(), 0.25 * j + 0.02 * u(), 0.25 * k, scale * u(),
                    scale * u(), scale * u(), 0.3);
      }
  const Diagnostics d0 = compute_diagnostics(p);
  ParticleControlOptions control;
  control.spacing = 0.25;
  control.remove_threshold = 1e-6;
  const ParticleControlStats stats = control_particles(p, control);
  EXPECT_GT(stats.removed, 200u);
  EXPECT_EQ(stats.kept, 0u);
  const Diagnostics d = compute_diagnostics(p);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(d.total_vorticity[k], d0.total_vorticity[k], 1e-13 * d0.sum_strength);
    EXPECT_NEAR(d.linear_impulse[k], d0.linear_impulse[k], 1e-13 * d0.sum_strength);
  }

  // Keeping the count bounded removes the weakest until the bound holds.
  ParticleControlOptions bounded = control;
  bounded.max_particles = 300;
  const ParticleControlStats s2 = control_particles(p, bounded);
  EXPECT_LE(p.size(), 300u);
  EXPECT_GT(s2.removed, 0u);
  const Diagnostics d2 = compute_diagnostics(p);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(d2.total_vorticity[k], d0.total_vorticity[k], 1e-12 * d0.sum_strength);
    EXPECT_NEAR(d2.linear_impulse[k], d0.linear_impulse[k], 1e-12 * d0.sum_strength);
  }
}

// Every removal is found on its own and the strengths are handed over in a fixed order: the same
// particles, bit for bit, on any number of threads; and no removed strength lands on a particle
// that goes (each one's strength leaves with it, so the totals still balance).
TEST(ParticleControl, SameResultOnAnyThreadCount) {
  testing::Draws u(4, -1, 1);
  ParticleSet p0;
  for (int i = 0; i < 6000; ++i) {
    const double scale = i % 4 == 0 ? 1e-9 : 1.0;  // a quarter negligible, many of them adjacent
    p0.push_back(u(), u(), u(), scale * u(), scale * u(), scale * u(), 0.1);
  }
  ParticleControlOptions control;
  control.spacing = 0.06;
  control.merge_distance = 0.3;
  control.remove_threshold = 1e-6;
  const int saved = omp_get_max_threads();
  ParticleSet one = p0, three = p0;
  omp_set_num_threads(1);
  const ParticleControlStats s1 = control_particles(one, control);
  omp_set_num_threads(3);
  const ParticleControlStats s3 = control_particles(three, control);
  omp_set_num_threads(saved);
  EXPECT_GE(s1.removed, 1400u);
  EXPECT_GT(s1.merged, 0u);
  EXPECT_EQ(s1.removed, s3.removed);
  EXPECT_EQ(s1.merged, s3.merged);
  ASSERT_EQ(one.size(), three.size());
  testing::expect_same_particles(one, three);
  const Diagnostics d0 = compute_diagnostics(p0), d = compute_diagnostics(one);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(d.total_vorticity[k], d0.total_vorticity[k], 1e-13 * d0.sum_strength);
    EXPECT_NEAR(d.linear_impulse[k], d0.linear_impulse[k], 1e-13 * d0.sum_strength);
  }
  EXPECT_EQ(one.size() + s1.removed + s1.merged, p0.size());
}

// The survivors in the grid's order (spatial_order): the same particles, value for value, as in
// the caller's order, sorted by their cells of h (then by their place before); on one thread and
// on three.
TEST(ParticleControl, SpatialOrderKeepsTheSameParticlesInCellOrder) {
  testing::Draws u(5, -1, 1);
  ParticleSet p0;
  for (int i = 0; i < 6000; ++i) {
    const double scale = i % 4 == 0 ? 1e-9 : 1.0;
    p0.push_back(u(), u(), u(), scale * u(), scale * u(), scale * u(), 0.1);
  }
  ParticleControlOptions control;
  control.spacing = 0.06;
  control.merge_distance = 0.3;
  ParticleSet caller = p0;
  const ParticleControlStats sc = control_particles(caller, control);
  control.spatial_order = true;
  const int saved = omp_get_max_threads();
  for (int threads : {1, 3}) {
    omp_set_num_threads(threads);
    ParticleSet grid = p0;
    const ParticleControlStats sg = control_particles(grid, control);
    omp_set_num_threads(saved);
    EXPECT_EQ(sg.removed, sc.removed);
    EXPECT_EQ(sg.merged, sc.merged);
    ASSERT_EQ(grid.size(), caller.size());
    using Row = std::array<double, 7>;
    const auto rows = [](const ParticleSet& p) {
      std::vector<Row> r(p.size());
      for (std::size_t i = 0; i < p.size(); ++i)
        r[i] = {p.x[i], p.y[i], p.z[i], p.gx[i], p.gy[i], p.gz[i], p.sigma[i]};
      return r;
    };
    std::vector<Row> a = rows(caller), b = rows(grid);
    const auto cell = [&](const ParticleSet& p, std::size_t i) {
      return std::array<double, 3>{std::floor(p.x[i] / control.spacing),
                                   std::floor(p.y[i] / control.spacing),
                                   std::floor(p.z[i] / control.spacing)};
    };
    std::size_t out_of_order = 0;
    for (std::size_t i = 1; i < grid.size(); ++i) out_of_order += cell(grid, i) < cell(grid, i - 1);
    EXPECT_EQ(out_of_order, 0u) << threads << " threads";
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    EXPECT_TRUE(a == b) << threads << " threads";
  }
}

// A workspace kept across calls (warmed on a larger set with other options) gives the result of a
// call without one, bit for bit.
TEST(ParticleControl, AWorkspaceGivesTheSameResult) {
  testing::Draws u(8, -1, 1);
  ParticleSet p0, larger;
  for (int i = 0; i < 5000; ++i) {
    const double scale = i % 5 == 0 ? 1e-9 : 1.0;
    p0.push_back(u(), u(), u(), scale * u(), scale * u(), scale * u(), 0.1);
  }
  for (int i = 0; i < 9000; ++i) {
    const double scale = i % 3 == 0 ? 1e-9 : 1.0;
    larger.push_back(2 * u(), u(), u(), scale * u(), scale * u(), scale, 0.1);
  }
  ParticleControlOptions control;
  control.spacing = 0.06;
  control.merge_distance = 0.3;
  control.remove_threshold = 1e-6;
  ParticleControlOptions other = control;
  other.spacing = 0.08;
  other.merge_distance = 0;
  ParticleControlWorkspace workspace;
  const ParticleControlStats warm = control_particles(larger, other, workspace);
  EXPECT_GT(warm.removed, 0u);
  ParticleSet a = p0, b = p0;
  const ParticleControlStats sa = control_particles(a, control);
  const ParticleControlStats sb = control_particles(b, control, workspace);
  EXPECT_GT(sa.removed, 500u);
  EXPECT_GT(sa.merged, 0u);
  EXPECT_EQ(sa.removed, sb.removed);
  EXPECT_EQ(sa.merged, sb.merged);
  EXPECT_EQ(sa.kept, sb.kept);
  testing::expect_same_particles(a, b);
}

// Receivers that nearly lie in a plane, with the particle to hand over off it: the signed
// fractions that keep the first moment are huge with both signs (about 1/jitter). A merge takes
// none (the particle stays); a weak particle takes none beyond the bound on their sum. No
// particle ends stronger than the strongest was.
TEST(ParticleControl, NoHugeSharesOffAFlatLayer) {
  testing::Draws u(12, -1, 1);
  ParticleSet p;
  for (int i = -4; i <= 4; ++i)
    for (int j = -4; j <= 4; ++j) p.push_back(i, j, 1e-3 * u(), 0, 0, 1, 0.5);
  p.push_back(0.1, 0.05, 0.3, 0, 0, 0.9, 0.5);   // merges into (0, 0, 0) if anywhere
  p.push_back(2.5, -1.5, 0.4, 0, 0, 1e-9, 0.5);  // weak: removed if anywhere
  const Diagnostics d0 = compute_diagnostics(p);
  ParticleControlOptions control;
  control.spacing = 1;
  control.merge_distance = 0.5;
  control.remove_threshold = 1e-6;
  const ParticleControlStats stats = control_particles(p, control);
  EXPECT_EQ(stats.merged, 0u);
  EXPECT_LE(stats.largest_share, 3.0);
  EXPECT_DOUBLE_EQ(stats.strongest_before, 1.0);
  EXPECT_LE(stats.strongest_after, 1.0 + 1e-12);
  double largest = 0;
  for (std::size_t i = 0; i < p.size(); ++i) largest = std::max(largest, p.strength(i));
  EXPECT_DOUBLE_EQ(largest, stats.strongest_after);
  EXPECT_EQ(p.size() + stats.removed, 83u);
  const Diagnostics d = compute_diagnostics(p);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(d.total_vorticity[k], d0.total_vorticity[k], 1e-13);
    EXPECT_NEAR(d.linear_impulse[k], d0.linear_impulse[k], 1e-13);
  }
}

TEST(ParticleControl, MergesClosePairsIntoNeighbours) {
  ParticleSet p;
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j)
      for (int k = -2; k <= 2; ++k) p.push_back(i, j, k, 0.1 * i, 1, 0.2 * j, 0.5);
  p.push_back(0.05, 0.02, 0.0, 0.3, 0.2, 0.1, 0.5);  // almost on top of the center particle
  const Diagnostics d0 = compute_diagnostics(p);
  ParticleControlOptions control;
  control.spacing = 1;
  control.merge_distance = 0.3;
  const ParticleControlStats stats = control_particles(p, control);
  EXPECT_EQ(stats.merged, 1u);
  EXPECT_EQ(p.size(), 125u);
  const Diagnostics d = compute_diagnostics(p);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(d.total_vorticity[k], d0.total_vorticity[k], 1e-13);
    EXPECT_NEAR(d.linear_impulse[k], d0.linear_impulse[k], 1e-13);
  }
  ParticleControlOptions bad;
  EXPECT_THROW(control_particles(p, bad), std::invalid_argument);
  // Enumerations cast from integers outside their lists are named.
  ParticleControlOptions odd = control;
  odd.backend = static_cast<Backend>(7);
  EXPECT_THROW(control_particles(p, odd), std::invalid_argument);
  odd = control;
  odd.merge_into = static_cast<MergeInto>(-1);
  EXPECT_THROW(control_particles(p, odd), std::invalid_argument);
}

// A particle merges when a stronger particle lies within the merge distance, whatever the others
// decide: of a chain of three, each within the distance of the next and stronger along the chain,
// the two weaker merge, in any order of the particles (the same set, strengths to rounding).
TEST(ParticleControl, MergesDoNotDependOnTheParticlesOrder) {
  ParticleSet p;
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j)
      for (int k = -2; k <= 2; ++k) p.push_back(i, j, k, 0.1 * i, 1, 0.2 * j, 0.5);
  p.push_back(0.5, 0.5, 0.5, 0, 0.5, 0, 0.5);   // weakest
  p.push_back(0.75, 0.5, 0.5, 0, 0.6, 0, 0.5);  // within 0.3 of both neighbours on the chain
  p.push_back(1.0, 0.5, 0.5, 0, 0.7, 0, 0.5);   // strongest of the three
  ParticleControlOptions control;
  control.spacing = 1;
  control.merge_distance = 0.3;
  const auto by_position = [](const ParticleSet& q) {
    std::vector<std::size_t> order(q.size());
    for (std::size_t i = 0; i < q.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return std::tie(q.x[a], q.y[a], q.z[a]) < std::tie(q.x[b], q.y[b], q.z[b]);
    });
    ParticleSet r;
    for (std::size_t i : order)
      r.push_back(q.x[i], q.y[i], q.z[i], q.gx[i], q.gy[i], q.gz[i], q.sigma[i]);
    return r;
  };
  ParticleSet forward = p, backward;
  for (std::size_t i = p.size(); i-- > 0;)
    backward.push_back(p.x[i], p.y[i], p.z[i], p.gx[i], p.gy[i], p.gz[i], p.sigma[i]);
  const ParticleControlStats a = control_particles(forward, control);
  const ParticleControlStats b = control_particles(backward, control);
  EXPECT_EQ(a.merged, 2u);
  EXPECT_EQ(b.merged, 2u);
  const ParticleSet fa = by_position(forward), fb = by_position(backward);
  ASSERT_EQ(fa.size(), fb.size());
  for (std::size_t i = 0; i < fa.size(); ++i) {
    ASSERT_EQ(fa.x[i], fb.x[i]);
    EXPECT_NEAR(fa.gy[i], fb.gy[i], 1e-14);
  }
}

// With a wall hook no strength crosses the wall: two layers of opposite vorticity on either side
// of the plane z = 0 (a body's two faces), a particle to merge and a weak one next to the plane
// on the upper side. Each side keeps its own total; without the hook the merged strength reaches
// the other side, whose receivers lie within the absorb radius.
TEST(ParticleControl, NoStrengthThroughAWall) {
  ParticleSet p;
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j)
      for (double z : {0.2, 1.2, 2.2}) {
        p.push_back(i, j, z, 0, 1, 0, 0.5);
        p.push_back(i, j, -z, 0, -1, 0, 0.5);
      }
  p.push_back(0.05, 0, 0.35, 0, 0.5, 0, 0.5);    // merges: within 0.3 of (0, 0, 0.2)
  p.push_back(0.5, 0.5, 0.05, 0, 1e-9, 0, 0.5);  // weak, below the upper layer
  const auto upper_total = [](const ParticleSet& q) {
    double total = 0;
    for (std::size_t i = 0; i < q.size(); ++i)
      if (q.z[i] > 0) total += q.gy[i];
    return total;
  };
  const double before = upper_total(p);
  ParticleControlOptions control;
  control.spacing = 1;
  control.merge_distance = 0.3;
  ParticleSet open = p;
  const ParticleControlStats unwalled = control_particles(open, control);
  EXPECT_EQ(unwalled.merged, 1u);
  EXPECT_GT(std::abs(upper_total(open) - before), 1e-3);  // the hook is what keeps the sides
  int calls = 0;
  control.blocked = [&calls](std::size_t, const std::array<double, 3>& a,
                             const std::array<double, 3>& b) {
#pragma omp atomic
    ++calls;
    return (a[2] > 0) != (b[2] > 0);
  };
  const ParticleControlStats walled = control_particles(p, control);
  EXPECT_GT(calls, 0);
  EXPECT_EQ(walled.merged, 1u);
  EXPECT_EQ(walled.removed, 1u);
  EXPECT_EQ(p.size(), 150u);
  EXPECT_NEAR(upper_total(p), before, 1e-13);
  double total = 0;
  for (std::size_t i = 0; i < p.size(); ++i) total += p.gy[i];
  EXPECT_NEAR(total, 0.5 + 1e-9, 1e-13);
}

}  // namespace
}  // namespace vortex
