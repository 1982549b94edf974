// Local-expansion lists: every source is still counted exactly once per target (near ranges + M2P
// nodes + the M2L nodes of the leaf and its ancestors), every M2L pair converges at its targets,
// and the choice follows the costs it is given.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "support/reference.hpp"
#include "vortex/local_expansion_lists.hpp"

namespace vortex {
namespace {

struct Case {
  KdTree s, t;
  InteractionLists lists;
  double theta;
};

Case make_case(const ParticleSet& sources, const Points& targets, int tb, int sb, int arity,
               double theta) {
  Case c{build_kdtree(PointsView(sources), sources.sigma.data(), sb, arity),
         build_kdtree(PointsView(targets), nullptr, tb, arity),
         {},
         theta};
  c.lists = build_interaction_lists(c.t, c.s, AcceptanceCriteria{theta, 2.4});
  return c;
}

double distance(const double* a, const double* b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// The invariants of lists built for `c`, checked from the particles.
void check_invariants(const Case& c, const ParticleSet& sources, const Points& targets,
                      const LocalExpansionLists& l) {
  const KdTree &s = c.s, &t = c.t;
  ASSERT_EQ(l.m2l_offsets.size(), t.nodes.size() + 1);
  ASSERT_EQ(l.m2p_offsets.size(), t.leaves.size() + 1);
  // A node holds a local expansion exactly when it or an ancestor has an M2L list.
  for (std::size_t k = 0; k < t.nodes.size(); ++k) {
    const KdNode& n = t.nodes[k];
    const bool own = l.m2l_offsets[k + 1] > l.m2l_offsets[k];
    EXPECT_EQ(bool(l.has_local[k]), own || (n.parent >= 0 && l.has_local[n.parent])) << k;
    // Every M2L pair converges: source particles within r_s of c_s, targets within r_T of c_T,
    // the radii measured from the particles.
    for (int e = l.m2l_offsets[k]; e < l.m2l_offsets[k + 1]; ++e) {
      const KdNode& src = s.nodes[l.m2l_nodes[e]];
      double rs = 0, rt = 0;
      for (int i = src.begin; i < src.end; ++i) {
        const std::size_t j = s.permutation[i];
        const double x[3] = {sources.x[j], sources.y[j], sources.z[j]};
        rs = std::max(rs, distance(x, src.center));
      }
      for (int i = n.begin; i < n.end; ++i) {
        const std::size_t j = t.permutation[i];
        const double x[3] = {targets.x[j], targets.y[j], targets.z[j]};
        rt = std::max(rt, distance(x, n.center));
      }
      ASSERT_LT(rs + rt, c.theta * distance(src.center, n.center));
    }
  }
  std::size_t l2p = 0, m2p = 0;
  for (std::size_t leaf = 0; leaf < t.leaves.size(); ++leaf) {
    std::vector<int> covered(sources.size(), 0);
    auto cover = [&](const KdNode& node) {
      for (int i = node.begin; i < node.end; ++i) ++covered[s.permutation[i]];
    };
    for (int k = c.lists.near_offsets[leaf]; k < c.lists.near_offsets[leaf + 1]; ++k)
      for (int i = c.lists.near_ranges[k].begin; i < c.lists.near_ranges[k].end; ++i)
        ++covered[s.permutation[i]];
    for (int k = l.m2p_offsets[leaf]; k < l.m2p_offsets[leaf + 1]; ++k)
      cover(s.nodes[l.m2p_nodes[k]]);
    for (int a = t.leaves[leaf]; a >= 0; a = t.nodes[a].parent)
      for (int k = l.m2l_offsets[a]; k < l.m2l_offsets[a + 1]; ++k) cover(s.nodes[l.m2l_nodes[k]]);
    for (std::size_t j = 0; j < sources.size(); ++j)
      ASSERT_EQ(covered[j], 1) << "source " << j << " in target leaf " << leaf;
    const KdNode& box = t.nodes[t.leaves[leaf]];
    if (l.has_local[t.leaves[leaf]]) l2p += box.count();
    m2p += std::size_t(box.count()) * (l.m2p_offsets[leaf + 1] - l.m2p_offsets[leaf]);
  }
  EXPECT_EQ(l.m2l_count, l.m2l_nodes.size());
  EXPECT_EQ(l.l2p_targets, l2p);
  EXPECT_EQ(l.m2p_pairs, m2p);
}

TEST(LocalExpansionLists, EverySourceCountedOncePerTarget) {
  const ParticleSet sources = testing::random_cube(6000, 41, 0.002);
  const Points targets = testing::random_points(5000, 42, -0.1, 1.1);
  for (int arity : {2, 8}) {
    for (double theta : {0.4, 0.6}) {
      SCOPED_TRACE("arity " + std::to_string(arity) + ", theta " + std::to_string(theta));
      const Case c = make_case(sources, targets, 16, 32, arity, theta);
      LocalExpansionLists l;
      build_local_expansion_lists(c.t, c.s, c.lists, theta, FarField::Local, {}, l);
      EXPECT_GT(l.m2l_count, 0u) << "the case should exercise the local expansions";
      EXPECT_GT(l.l2l_count, 0u);
      check_invariants(c, sources, targets, l);
      // The same storage rebuilt for M2P alone: the far lists as they were.
      build_local_expansion_lists(c.t, c.s, c.lists, theta, FarField::M2P, {}, l);
      EXPECT_EQ(l.m2l_count, 0u);
      EXPECT_EQ(l.l2p_targets, 0u);
      EXPECT_EQ(l.m2p_offsets, c.lists.far_offsets);
      EXPECT_EQ(l.m2p_nodes, c.lists.far_nodes);
      check_invariants(c, sources, targets, l);
    }
  }
}

// Auto follows the costs: M2L that costs nothing against M2P takes every pair Local takes (at the
// highest node that allows it); M2L dearer than M2P at every target takes none; in between the
// invariants hold.
TEST(LocalExpansionLists, AutoFollowsTheCosts) {
  const ParticleSet sources = testing::random_cube(6000, 43, 0.002);
  const Case c = make_case(sources, sources.positions(), 32, 32, 8, 0.5);
  LocalExpansionLists local, cheap, dear, between;
  build_local_expansion_lists(c.t, c.s, c.lists, c.theta, FarField::Local, {}, local);
  build_local_expansion_lists(c.t, c.s, c.lists, c.theta, FarField::Auto, {0, 0, 0, 1}, cheap);
  EXPECT_EQ(cheap.m2l_nodes, local.m2l_nodes);
  EXPECT_EQ(cheap.m2p_nodes, local.m2p_nodes);
  build_local_expansion_lists(c.t, c.s, c.lists, c.theta, FarField::Auto, {1e6, 0, 0, 1}, dear);
  EXPECT_EQ(dear.m2l_count, 0u);
  EXPECT_EQ(dear.m2p_nodes, c.lists.far_nodes);
  // M2L worth 200 targets' M2P, L2P one target's: only nodes of a few hundred targets take it.
  build_local_expansion_lists(c.t, c.s, c.lists, c.theta, FarField::Auto, {200, 5, 1, 1}, between);
  EXPECT_LT(between.m2l_count, local.m2l_count);
  for (std::size_t k = 0; k < c.t.nodes.size(); ++k)
    if (between.m2l_offsets[k + 1] > between.m2l_offsets[k]) EXPECT_GT(c.t.nodes[k].count(), 200);
  check_invariants(c, sources, sources.positions(), between);
}

}  // namespace
}  // namespace vortex
