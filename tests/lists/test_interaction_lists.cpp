// Interaction lists: every source particle is counted once per target leaf, and no far pair breaks
// either acceptance criterion.

#include <gtest/gtest.h>

#include <cmath>

#include "support/reference.hpp"
#include "vortex/interaction_lists.hpp"

namespace vortex {
namespace {

void check_lists(const ParticleSet& sources, const Points& targets, int tb, int sb, int arity,
                 AcceptanceCriteria criteria) {
  const KdTree s = build_kdtree(PointsView(sources), sources.sigma.data(), sb, arity);
  const KdTree t = build_kdtree(PointsView(targets), nullptr, tb, arity);
  const InteractionLists lists = build_interaction_lists(t, s, criteria);
  ASSERT_EQ(lists.num_target_leaves(), t.leaves.size());
  // Near ranges are runs of whole source leaves: they start and end on leaf boundaries.
  std::vector<char> leaf_begin(sources.size() + 1, 0), leaf_end(sources.size() + 1, 0);
  for (int l : s.leaves) leaf_begin[s.nodes[l].begin] = leaf_end[s.nodes[l].end] = 1;
  std::size_t far_count = 0;
  for (std::size_t leaf = 0; leaf < t.leaves.size(); ++leaf) {
    std::vector<int> covered(sources.size(), 0);
    for (int k = lists.near_offsets[leaf]; k < lists.near_offsets[leaf + 1]; ++k) {
      const IndexRange r = lists.near_ranges[k];
      ASSERT_LT(r.begin, r.end);
      ASSERT_TRUE(leaf_begin[r.begin] && leaf_end[r.end]);
      // Abutting ranges are merged.
      if (k > lists.near_offsets[leaf]) ASSERT_NE(lists.near_ranges[k - 1].end, r.begin);
      for (int i = r.begin; i < r.end; ++i) ++covered[s.permutation[i]];
    }
    const KdNode& box = t.nodes[t.leaves[leaf]];
    for (int k = lists.far_offsets[leaf]; k < lists.far_offsets[leaf + 1]; ++k) {
      const KdNode& node = s.nodes[lists.far_nodes[k]];
      ++far_count;
      for (int i = node.begin; i < node.end; ++i) {
        const std::size_t j = s.permutation[i];
        ++covered[j];
        for (int ti = box.begin; ti < box.end; ++ti) {
          const std::size_t m = t.permutation[ti];
          const double dx = targets.x[m] - sources.x[j], dy = targets.y[m] - sources.y[j],
                       dz = targets.z[m] - sources.z[j];
          // (b) no regularized pair is approximated.
          ASSERT_GE(std::sqrt(dx * dx + dy * dy + dz * dz), criteria.kappa * sources.sigma[j]);
        }
      }
      // (a) the expansion converges at every target of the leaf.
      for (int ti = box.begin; ti < box.end; ++ti) {
        const std::size_t m = t.permutation[ti];
        const double cx = targets.x[m] - node.center[0], cy = targets.y[m] - node.center[1],
                     cz = targets.z[m] - node.center[2];
        ASSERT_LE(node.radius, criteria.theta * std::sqrt(cx * cx + cy * cy + cz * cz));
      }
    }
    for (std::size_t j = 0; j < sources.size(); ++j)
      ASSERT_EQ(covered[j], 1) << "source " << j << " in target leaf " << leaf;
  }
  EXPECT_GT(far_count, 0u) << "the case should exercise the far field";
}

TEST(InteractionLists, CubeSelfInteraction) {
  const ParticleSet p = testing::random_cube(3000, 21);
  check_lists(p, p.positions(), 16, 32, 8, {0.5, 2.4});
  check_lists(p, p.positions(), 64, 64, 2, {0.7, 2.4});
}

TEST(InteractionLists, SeparateTargetsAndLargeCores) {
  ParticleSet p = testing::random_cube(2000, 22);
  for (std::size_t i = 0; i < p.size(); i += 13) p.sigma[i] = 0.2;  // a few fat cores stay near
  const Points t = testing::random_points(1500, 23, -0.5, 1.5);
  check_lists(p, t, 32, 16, 4, {0.6, 2.4});
}

TEST(InteractionLists, IsFarNeedsBothCriteria) {
  KdNode target, source;
  for (int d = 0; d < 3; ++d) {
    target.lo[d] = 0;
    target.hi[d] = 1;
    source.lo[d] = 4;
    source.hi[d] = 5;
    source.center[d] = 4.5;
  }
  source.radius = std::sqrt(3.0) / 2;
  source.max_sigma = 0.1;
  EXPECT_TRUE(is_far(target, source, {0.5, 2.0}));
  EXPECT_FALSE(is_far(target, source, {0.1, 2.0}));  // geometric criterion fails
  source.max_sigma = 3.0;
  EXPECT_FALSE(is_far(target, source, {0.5, 2.0}));  // core criterion fails
}

}  // namespace
}  // namespace vortex
