// The treecode's host stage: trees, particles in tree order, lists, and their counts.

#include <omp.h>

#include <algorithm>
#include <chrono>

#include "tree/bounding_box.hpp"
#include "tree/tree_plan.hpp"

namespace vortex::detail {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Strengths and core radii in tree order and internal units (sized already); the positions came
// with the tree build.
void gather_strengths(SourcesView s, const std::vector<std::size_t>& perm, Units units,
                      ParticleSet& out) {
  const std::size_t n = perm.size();
  const double g = units.strength_factor(), l = units.length_factor();
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = perm[i];
    out.gx[i] = s.gx[j] * g;
    out.gy[i] = s.gy[j] * g;
    out.gz[i] = s.gz[j] * g;
    out.sigma[i] = s.sigma[j] * l;
  }
}

}  // namespace

Origin middle_of(SourcesView s) {
  const Box b = bounding_box(s.x, s.y, s.z, s.size());
  return {0.5 * (b.lo[0] + b.hi[0]), 0.5 * (b.lo[1] + b.hi[1]), 0.5 * (b.lo[2] + b.hi[2])};
}

void build_tree_plan(SourcesView sources, PointsView targets, const TreeOptions& tree, Units units,
                     TreePlan& plan, StageTimes& times) {
  plan.order = tree.order;
  plan.units = units;
  const double scale = units.length_factor();
  auto stage = Clock::now();
  // The builds write the points in tree order straight into the plan.
  plan.sources.resize(sources.size());
  plan.targets.resize(targets.size());
  ParticleSet& s = plan.sources;
  Points& t = plan.targets;
  KdTreeBuilder::build_pair(
      plan.source_builder,
      {sources.positions(),
       sources.sigma,
       tree.source_bucket,
       {s.x.data(), s.y.data(), s.z.data()},
       scale},
      plan.source_tree, plan.target_builder,
      {targets, nullptr, tree.target_bucket, {t.x.data(), t.y.data(), t.z.data()}, scale},
      plan.target_tree, tree.arity);
  gather_strengths(sources, plan.source_tree.permutation, units, plan.sources);
  times.tree = seconds_since(stage);

  stage = Clock::now();
  build_interaction_lists(
      plan.target_tree, plan.source_tree,
      criteria_with_orders(tree.theta, tree.kappa, tree.order, tree.uniform_order), plan.lists);
  times.lists = seconds_since(stage);
}

void count_interactions(const TreePlan& plan, EvaluationStats& stats) {
  const auto& lists = plan.lists;
  const KdTree& tt = plan.target_tree;
  std::uint64_t pairs = 0, m2p = 0;
  const int num_leaves = static_cast<int>(tt.leaves.size());
#pragma omp parallel for reduction(+ : pairs, m2p) schedule(static)
  for (int leaf = 0; leaf < num_leaves; ++leaf) {
    const std::uint64_t targets = tt.nodes[tt.leaves[leaf]].count();
    std::uint64_t sources = 0;
    for (int k = lists.near_offsets[leaf]; k < lists.near_offsets[leaf + 1]; ++k)
      sources += lists.near_ranges[k].size();
    pairs += targets * sources;
    m2p += targets * (lists.far_offsets[leaf + 1] - lists.far_offsets[leaf]);
  }
  stats.pair_interactions = pairs;
  stats.multipole_interactions = m2p;
  stats.near_list_entries = lists.near_ranges.size();
  stats.far_list_entries = lists.far_nodes.size();
  stats.target_leaves = tt.leaves.size();
  stats.source_nodes = plan.source_tree.nodes.size();
}

}  // namespace vortex::detail
