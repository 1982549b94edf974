// Merges into one partner (MergeInto::Partner): the whole strength goes to the nearest particle
// that stays within the merge distance, which moves to the |Gamma|-weighted centroid. The total
// vorticity is kept exactly; the linear impulse where the strengths are parallel, and otherwise
// changes by the closed form below; a vortex filament stays on its line where spreading puts its
// strength off it; no partner is taken through a wall.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "vortex/diagnostics.hpp"
#include "vortex/particle_control.hpp"

namespace vortex {
namespace {

// A 5 x 5 x 5 lattice of unit spacing, strengths mostly along y.
ParticleSet lattice() {
  ParticleSet p;
  for (int i = -2; i <= 2; ++i)
    for (int j = -2; j <= 2; ++j)
      for (int k = -2; k <= 2; ++k) p.push_back(i, j, k, 0.1 * i, 1, 0.2 * j, 0.5);
  return p;
}

std::size_t nearest_to(const ParticleSet& p, double x, double y, double z) {
  std::size_t best = 0;
  double d = HUGE_VAL;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double e = std::hypot(p.x[i] - x, p.y[i] - y, p.z[i] - z);
    if (e < d) {
      d = e;
      best = i;
    }
  }
  return best;
}

ParticleControlOptions partner_options(double merge_distance) {
  ParticleControlOptions o;
  o.spacing = 1;
  o.merge_distance = merge_distance;
  o.merge_into = MergeInto::Partner;
  return o;
}

// Centroid and strength by hand; the impulse 1/2 sum x x Gamma changes by
// 1/2 (x_j - x_i) x (|G_j| G_i - |G_i| G_j) / (|G_i| + |G_j|), zero for parallel strengths.
TEST(MergePartner, MergesIntoTheNearestPartnerAtTheCentroid) {
  for (const bool parallel : {true, false}) {
    ParticleSet p = lattice();
    const std::array<double, 3> gi =
        parallel ? std::array<double, 3>{0.0, 0.4, 0.0} : std::array<double, 3>{0.3, 0.2, 0.1};
    const std::array<double, 3> xi{0.05, 0.02, 0.0}, xj{0, 0, 0};
    p.push_back(xi[0], xi[1], xi[2], gi[0], gi[1], gi[2], 0.5);
    const std::array<double, 3> gj{0.0, 1.0, 0.0};  // the lattice's centre particle's
    const Diagnostics d0 = compute_diagnostics(p);
    const ParticleControlStats stats = control_particles(p, partner_options(0.3));
    EXPECT_EQ(stats.merged, 1u);
    EXPECT_EQ(stats.partner_merges, 1u);
    ASSERT_EQ(p.size(), 125u);
    const double si = std::sqrt(gi[0] * gi[0] + gi[1] * gi[1] + gi[2] * gi[2]);
    const double sj = std::sqrt(gj[0] * gj[0] + gj[1] * gj[1] + gj[2] * gj[2]);
    const std::size_t c = nearest_to(p, 0, 0, 0);
    EXPECT_NEAR(p.x[c], (sj * xj[0] + si * xi[0]) / (si + sj), 1e-15);
    EXPECT_NEAR(p.y[c], (sj * xj[1] + si * xi[1]) / (si + sj), 1e-15);
    EXPECT_NEAR(p.z[c], 0.0, 1e-15);
    EXPECT_NEAR(p.gx[c], gj[0] + gi[0], 1e-15);
    EXPECT_NEAR(p.gy[c], gj[1] + gi[1], 1e-15);
    EXPECT_NEAR(p.gz[c], gj[2] + gi[2], 1e-15);
    const Diagnostics d = compute_diagnostics(p);
    std::array<double, 3> mix, dx{xj[0] - xi[0], xj[1] - xi[1], xj[2] - xi[2]};
    for (int k = 0; k < 3; ++k) mix[k] = (sj * gi[k] - si * gj[k]) / (si + sj);
    const std::array<double, 3> change{0.5 * (dx[1] * mix[2] - dx[2] * mix[1]),
                                       0.5 * (dx[2] * mix[0] - dx[0] * mix[2]),
                                       0.5 * (dx[0] * mix[1] - dx[1] * mix[0])};
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(d.total_vorticity[k], d0.total_vorticity[k], 1e-13);
      EXPECT_NEAR(d.linear_impulse[k], d0.linear_impulse[k] + change[k], 1e-13);
      if (parallel) EXPECT_EQ(change[k], 0.0);
    }
    if (!parallel) EXPECT_GT(std::abs(change[2]), 1e-3);  // the test tells the forms apart
  }
}

// A candidate whose only stronger neighbour within the merge distance merges itself has no
// partner: it spreads over its neighbours (non-negative shares). Of the chain below the middle
// particle merges into the strongest, the weakest (0.5 from the strongest, 0.25 from the middle)
// into its neighbours; only the partner merge moves the strongest.
TEST(MergePartner, WithoutAPartnerTheStrengthGoesToTheNeighbours) {
  ParticleSet p = lattice();
  p.push_back(0.5, 0.5, 0.5, 0, 0.5, 0, 0.5);
  p.push_back(0.75, 0.5, 0.5, 0, 0.6, 0, 0.5);
  p.push_back(1.0, 0.5, 0.5, 0, 0.7, 0, 0.5);
  const Diagnostics d0 = compute_diagnostics(p);
  const ParticleControlStats stats = control_particles(p, partner_options(0.3));
  EXPECT_EQ(stats.merged, 2u);
  EXPECT_EQ(stats.partner_merges, 1u);
  EXPECT_EQ(p.size(), 126u);
  const std::size_t s = nearest_to(p, 0.9, 0.5, 0.5);
  EXPECT_GT(p.gy[s], 1.3 - 1e-15);
  EXPECT_NEAR(p.x[s], (0.7 * 1.0 + 0.6 * 0.75) / 1.3, 1e-15);
  const Diagnostics d = compute_diagnostics(p);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(d.total_vorticity[k], d0.total_vorticity[k], 1e-13);
}

// A straight filament along y, its particles 0.2 apart (merge distance 0.3), in a weaker lattice
// of spacing 1 around it. Merged into partners, all of the filament's strength stays on its line;
// spread over the neighbours, a part of it goes to the lattice.
TEST(MergePartner, AFilamentStaysOnItsLine) {
  ParticleSet p;
  for (int i = -3; i <= 3; ++i)
    for (int j = -3; j <= 3; ++j)
      for (int k = -3; k <= 3; ++k)
        if (i != 0 || k != 0) p.push_back(i + 0.5, j, k + 0.5, 0, 0.01, 0, 0.5);
  double line = 0;
  for (int j = -10; j <= 10; ++j) {
    // The odd ones stronger: each even one merges into an odd neighbour.
    const double g = j % 2 != 0 ? 1.1 : 1 + 0.001 * j;
    p.push_back(0, 0.2 * j, 0, 0, g, 0, 0.5);
    line += g;
  }
  const auto on_line = [](const ParticleSet& q) {
    double total = 0;
    for (std::size_t i = 0; i < q.size(); ++i)
      if (q.x[i] == 0 && q.z[i] == 0) total += q.gy[i];
    return total;
  };
  ParticleSet spread = p;
  ParticleControlOptions neighbours = partner_options(0.3);
  neighbours.merge_into = MergeInto::Neighbours;
  const ParticleControlStats a = control_particles(spread, neighbours);
  const ParticleControlStats b = control_particles(p, partner_options(0.3));
  EXPECT_GT(a.merged, 5u);
  EXPECT_EQ(b.merged, a.merged);
  EXPECT_EQ(b.partner_merges, b.merged);
  EXPECT_NEAR(on_line(p), line, 1e-13);
  EXPECT_GT(line - on_line(spread), 0.1);
}

// A wall (the plane z = 0): no partner is taken across it, and a particle does not merge because of
// a stronger one across it. Without the wall hook both particles above it merge into the one below,
// which moves above the wall.
TEST(MergePartner, NoPartnerThroughAWall) {
  ParticleSet p = lattice();
  for (std::size_t i = 0; i < p.size(); ++i) p.z[i] += 0.5;  // no lattice particle on the wall
  p.push_back(0.0, 0.0, 0.02, 0, 2, 0, 0.5);                 // strong, just above the wall
  p.push_back(0.0, 0.0, -0.05, 0, 3, 0, 0.5);                // stronger, just below it
  p.push_back(0.0, 0.0, 0.12, 0, 1, 0, 0.5);                 // weakest, merges
  ParticleControlOptions o = partner_options(0.2);
  o.blocked = [](std::size_t, const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return (a[2] > 0) != (b[2] > 0);
  };
  ParticleSet open = p;
  ParticleControlOptions unwalled = o;
  unwalled.blocked = nullptr;
  const ParticleControlStats u = control_particles(open, unwalled);
  // The particle at 0.12 finds the one at 0.02 merging too: its partner is the one below (0.17).
  EXPECT_EQ(u.partner_merges, 2u);
  const std::size_t below = nearest_to(open, 0, 0, -0.05);
  EXPECT_NEAR(open.gy[below], 6.0, 1e-15);
  EXPECT_NEAR(open.z[below], (3 * -0.05 + 2 * 0.02 + 0.12) / 6, 1e-15);
  EXPECT_GT(open.z[below], 0.0);
  const ParticleControlStats w = control_particles(p, o);
  EXPECT_EQ(w.merged, 1u);  // 0.12 into 0.02; 0.02 is not a candidate with the wall
  EXPECT_EQ(w.partner_merges, 1u);
  const std::size_t up = nearest_to(p, 0, 0, 0.05);
  EXPECT_NEAR(p.gy[up], 3.0, 1e-15);
  EXPECT_NEAR(p.z[up], (2 * 0.02 + 1 * 0.12) / 3, 1e-15);
  const std::size_t down = nearest_to(p, 0, 0, -0.05);
  EXPECT_EQ(p.gy[down], 3.0);
  EXPECT_EQ(p.z[down], -0.05);
}

}  // namespace
}  // namespace vortex
