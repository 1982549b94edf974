// The trees, lists and multipoles the CUDA backend builds on the device, held to the host's: the
// same shapes and leaf partitions, exact bounds, the same lists (the same walk on the same nodes),
// every source counted once per target leaf, and multipoles equal to the host upward pass.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "support/device_copies.hpp"
#include "support/reference.hpp"
#include "tree/tree_plan.hpp"
#include "tree/tree_shape.hpp"
#include "vortex/generators.hpp"
#include "vortex/gpu/check.hpp"
#include "vortex/gpu/device_tree.hpp"
#include "vortex/gpu/stream.hpp"
#include "vortex/gpu/tree_launch.hpp"
#include "vortex/interaction_lists.hpp"
#include "vortex/kdtree.hpp"
#include "vortex/multipole/expansion.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

namespace g = vortex::gpu;

using testing::DevicePositions;
using testing::download;
using testing::upload;

// The particles of one leaf range, as a sorted list of caller indices.
template <class Perm>
std::vector<std::size_t> members(const Perm& perm, int begin, int end) {
  std::vector<std::size_t> m(perm.begin() + begin, perm.begin() + end);
  std::sort(m.begin(), m.end());
  return m;
}

// A tree built on the device as the Solver builds it: its adaptive cuts, its shape, the rest.
void build_on_device(g::DeviceTree& tree, g::DevicePoints points, int n, int bucket, int arity,
                     cudaStream_t stream) {
  tree.begin(points, n, stream);
  detail::DecidedCuts decided;
  const int first = detail::cut_adaptive_depths(tree, n, bucket, stream, decided);
  tree.set_shape(detail::make_tree_shape(n, bucket, arity, &decided), stream);
  tree.finish(points, first, stream);
}

class DeviceTreeTest : public ::testing::TestWithParam<int> {};

TEST_P(DeviceTreeTest, SameTreeAsTheHostBuilder) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const int arity = GetParam();
  // The Plummer spheres' outskirts make adaptive cuts that are not at the median (tree_node.hpp),
  // the smaller below the first depth cut in blocks.
  for (const ParticleSet& p :
       {testing::random_cube(5003, 11, 0.02), plummer_sphere(4000, 5), plummer_sphere(70000, 6)}) {
    for (int bucket : {1, 16, 64}) {
      SCOPED_TRACE("bucket " + std::to_string(bucket));
      const int n = static_cast<int>(p.size());
      const KdTree host = build_kdtree(PointsView(p), p.sigma.data(), bucket, arity);
      const DevicePositions d(p);
      g::Stream stream;
      g::DeviceTree tree;
      build_on_device(tree, d.points(), n, bucket, arity, stream.get());
      stream.synchronize();
      const std::vector<KdNode> nodes = download(tree.nodes(), tree.num_nodes());
      const std::vector<std::uint32_t> perm = download(tree.permutation(), n);
      ASSERT_EQ(nodes.size(), host.nodes.size());
      EXPECT_EQ(tree.shape().leaves, host.leaves);
      // Every particle once.
      std::vector<std::uint32_t> sorted = perm;
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i < n; ++i) ASSERT_EQ(sorted[i], static_cast<std::uint32_t>(i));
      for (std::size_t k = 0; k < nodes.size(); ++k) {
        const KdNode &a = nodes[k], &b = host.nodes[k];
        ASSERT_EQ(a.begin, b.begin);
        ASSERT_EQ(a.end, b.end);
        ASSERT_EQ(a.first_child, b.first_child);
        ASSERT_EQ(a.num_children, b.num_children);
        // The same particles in every node (continuous coordinates: no ties), so the same exact
        // bounds, centers and core radii, and radii to rounding.
        if (a.is_leaf())
          ASSERT_EQ(members(perm, a.begin, a.end), members(host.permutation, b.begin, b.end))
              << "node " << k;
        for (int c = 0; c < 3; ++c) {
          EXPECT_EQ(a.lo[c], b.lo[c]);
          EXPECT_EQ(a.hi[c], b.hi[c]);
          EXPECT_EQ(a.center[c], b.center[c]);
        }
        EXPECT_EQ(a.max_sigma, b.max_sigma);
        EXPECT_NEAR(a.radius, b.radius, 1e-15 * (1 + b.radius));
      }
      // Tight boxes: every particle of a node inside it, a particle on each face.
      const std::vector<double> ordered = download(tree.x(), 3 * std::size_t(n));
      for (const KdNode& a : nodes) {
        for (int c = 0; c < 3; ++c) {
          double lo = 1e300, hi = -1e300;
          for (int i = a.begin; i < a.end; ++i) {
            const double v = ordered[std::size_t(c) * n + i];
            EXPECT_EQ(v, c == 0 ? p.x[perm[i]] : c == 1 ? p.y[perm[i]] : p.z[perm[i]]);
            lo = std::min(lo, v), hi = std::max(hi, v);
          }
          EXPECT_EQ(lo, a.lo[c]);
          EXPECT_EQ(hi, a.hi[c]);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Arity, DeviceTreeTest, ::testing::Values(2, 4, 8));

// Lists walked on the device over the host's nodes equal the host's lists entry for entry (with
// each far entry's order) for any frontier the walk is split at, and count every source exactly
// once per target leaf.
TEST(DeviceLists, EqualTheHostListsAndCountEverySourceOnce) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p = plummer_sphere(6000, 3);
  const Points t = testing::random_points(3000, 4, -2, 2);
  const KdTree sources = build_kdtree(PointsView(p), p.sigma.data(), 32, 8);
  const KdTree targets = build_kdtree(PointsView(t), nullptr, 64, 8);
  for (double theta : {0.3, 0.6, 0.9}) {
    const AcceptanceCriteria criteria = criteria_with_orders(theta, 2.41, 10, false);
    const InteractionLists host = build_interaction_lists(targets, sources, criteria);
    const auto source_nodes = upload(sources.nodes);
    const auto target_nodes = upload(targets.nodes);
    const auto target_leaves = upload(targets.leaves);
    const int leaves = static_cast<int>(targets.leaves.size());
    // The root alone, then frontiers one to three levels down, and the pick for these sizes.
    std::vector<std::vector<int>> frontiers;
    for (int depth = 0; depth <= 3; ++depth)
      frontiers.push_back(g::walk_frontier(sources.nodes, depth));
    frontiers.push_back(g::pick_walk_frontier(sources.nodes, leaves));
    for (const std::vector<int>& frontier : frontiers) {
      SCOPED_TRACE("theta " + std::to_string(theta) + ", " + std::to_string(frontier.size()) +
                   " slots");
      g::DeviceBuffer<int> near_count(leaves), far_count(leaves), near_offsets(leaves + 1),
          far_offsets(leaves + 1);
      g::DeviceBuffer<unsigned char> temp;
      g::ListWalk w;
      w.targets = target_nodes.data();
      w.target_leaves = target_leaves.data();
      w.num_target_leaves = leaves;
      w.sources = source_nodes.data();
      w.criteria = criteria;
      g::ListWalkSlots slots;
      slots.prepare(frontier, leaves, nullptr);
      slots.attach(w);
      w.near_count = near_count.data();
      w.far_count = far_count.data();
      g::launch_list_counts(w, nullptr);
      g::exclusive_offsets(near_count.data(), near_offsets.data(), leaves, temp, nullptr);
      g::exclusive_offsets(far_count.data(), far_offsets.data(), leaves, temp, nullptr);
      const std::vector<int> no = download(near_offsets.data(), leaves + 1);
      const std::vector<int> fo = download(far_offsets.data(), leaves + 1);
      ASSERT_EQ(no, host.near_offsets);
      ASSERT_EQ(fo, host.far_offsets);
      g::DeviceBuffer<IndexRange> near(std::max(no.back(), 1));
      g::DeviceBuffer<int> far(std::max(fo.back(), 1));
      g::DeviceBuffer<unsigned char> orders(std::max(fo.back(), 1));
      w.near_offsets = near_offsets.data();
      w.far_offsets = far_offsets.data();
      w.near_ranges = near.data();
      w.far_nodes = far.data();
      w.far_orders = orders.data();
      g::launch_list_fill(w, nullptr);
      const std::vector<IndexRange> nr = download(near.data(), no.back());
      const std::vector<int> fn = download(far.data(), fo.back());
      ASSERT_EQ(fn, host.far_nodes);
      EXPECT_EQ(download(orders.data(), fo.back()), host.far_orders);
      ASSERT_EQ(nr.size(), host.near_ranges.size());
      for (std::size_t k = 0; k < nr.size(); ++k) {
        EXPECT_EQ(nr[k].begin, host.near_ranges[k].begin);
        EXPECT_EQ(nr[k].end, host.near_ranges[k].end);
      }
      // Every source once per target leaf, and no far node within kappa sigma of the leaf.
      for (int leaf = 0; leaf < leaves; ++leaf) {
        std::vector<int> seen(p.size(), 0);
        for (int k = no[leaf]; k < no[leaf + 1]; ++k)
          for (int i = nr[k].begin; i < nr[k].end; ++i) ++seen[i];
        const KdNode& target = targets.nodes[targets.leaves[leaf]];
        for (int k = fo[leaf]; k < fo[leaf + 1]; ++k) {
          const KdNode& s = sources.nodes[fn[k]];
          EXPECT_GE(acceptance::box_gap(target, s), criteria.kappa * s.max_sigma);
          for (int i = s.begin; i < s.end; ++i) ++seen[i];
        }
        for (int c : seen) ASSERT_EQ(c, 1) << "leaf " << leaf;
      }
    }
  }
}

// The walk's frontier (host code, no device needed): the nodes of one level and the leaves above
// it tile the particles in tree order, so that every leaf lies under exactly one frontier node;
// the pick is the deepest within the slots' budget.
TEST(DeviceListFrontier, TilesTheSourcesInTreeOrder) {
  const ParticleSet p = plummer_sphere(20000, 7);
  for (int arity : {2, 8}) {
    const KdTree sources = build_kdtree(PointsView(p), p.sigma.data(), 16, arity);
    int deepest = 0;
    for (const KdNode& node : sources.nodes) deepest = std::max(deepest, node.level);
    for (int depth = 0; depth <= deepest + 1; ++depth) {
      SCOPED_TRACE("arity " + std::to_string(arity) + ", depth " + std::to_string(depth));
      const std::vector<int> frontier = g::walk_frontier(sources.nodes, depth);
      ASSERT_FALSE(frontier.empty());
      int next = 0;
      for (const int k : frontier) {
        const KdNode& node = sources.nodes[k];
        EXPECT_TRUE(node.level == depth || (node.level < depth && node.is_leaf()));
        ASSERT_EQ(node.begin, next);
        next = node.end;
      }
      EXPECT_EQ(next, static_cast<int>(p.size()));
    }
    for (int leaves : {1, 100, 10000, 1000000}) {
      const std::vector<int> pick = g::pick_walk_frontier(sources.nodes, leaves);
      int depth = 0;
      while (depth < g::kMaxFrontierDepth && g::walk_frontier(sources.nodes, depth) != pick)
        ++depth;
      ASSERT_EQ(g::walk_frontier(sources.nodes, depth), pick) << leaves << " leaves";
      if (depth > 0) EXPECT_LE(static_cast<long long>(pick.size()) * leaves, g::kListThreads);
      // A deeper frontier that differs (one that is not all leaves already) is over the budget.
      const std::vector<int> deeper = g::walk_frontier(sources.nodes, depth + 1);
      if (depth < g::kMaxFrontierDepth && deeper != pick)
        EXPECT_GT(static_cast<long long>(deeper.size()) * leaves, g::kListThreads)
            << leaves << " leaves, depth " << depth;
    }
  }
}

// The device upward pass on the host's tree equals the host's (double; summation order alone).
TEST(DeviceUpwardPass, EqualsTheHostMultipoles) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  for (int order : {1, 4, 8, 12, 16}) {
    SCOPED_TRACE("p = " + std::to_string(order));
    detail::TreePlan plan;
    plan.order = order;
    const ParticleSet p = testing::random_cube(4000, 9, 0.02);
    plan.source_tree = build_kdtree(PointsView(p), p.sigma.data(), 32, 8);
    for (std::size_t i = 0; i < p.size(); ++i) {
      const std::size_t j = plan.source_tree.permutation[i];
      plan.sources.push_back(p.x[j], p.y[j], p.z[j], p.gx[j], p.gy[j], p.gz[j], p.sigma[j]);
    }
    detail::compute_multipoles(plan);
    const KdTree& tree = plan.source_tree;
    const gpu::TreeShape shape = detail::make_tree_shape(int(p.size()), 32, 8);
    const std::vector<std::uint32_t> identity = [&] {
      std::vector<std::uint32_t> v(p.size());
      std::iota(v.begin(), v.end(), 0u);
      return v;
    }();
    const auto nodes = upload(tree.nodes);
    const auto leaves = upload(tree.leaves);
    const auto inner = upload(shape.inner_by_level);
    const auto perm = upload(identity);
    const auto x = upload(plan.sources.x), y = upload(plan.sources.y), z = upload(plan.sources.z);
    const auto gx = upload(plan.sources.gx), gy = upload(plan.sources.gy),
               gz = upload(plan.sources.gz);
    const std::size_t num_nodes = tree.nodes.size();
    const std::size_t vsize = multipole::velocity_expansion_size(order);
    g::DeviceBuffer<double> multipoles(num_nodes * multipole::multipole_size(order)),
        expansions(num_nodes * vsize), centers(4 * num_nodes);
    g::UpwardPass u;
    u.order = order;
    u.arithmetic = g::Arithmetic::Double;
    u.nodes = nodes.data();
    u.num_nodes = static_cast<int>(num_nodes);
    u.leaves = leaves.data();
    u.num_leaves = static_cast<int>(tree.leaves.size());
    u.inner_by_level = inner.data();
    u.level_start = shape.level_start.data();
    u.num_levels = static_cast<int>(shape.level_start.size()) - 1;
    u.x = x.data(), u.y = y.data(), u.z = z.data();
    u.perm = perm.data();
    u.gx = gx.data(), u.gy = gy.data(), u.gz = gz.data();
    u.multipoles = multipoles.data();
    u.expansions = expansions.data();
    u.centers = centers.data();
    g::launch_upward_pass(u, nullptr);
    const std::vector<double> v = download(expansions.data(), num_nodes * vsize);
    double largest = 0, worst = 0;
    for (std::size_t k = 0; k < v.size(); ++k) {
      largest = std::max(largest, std::abs(plan.velocity_expansions[k]));
      worst = std::max(worst, std::abs(v[k] - plan.velocity_expansions[k]));
    }
    EXPECT_LE(worst, 1e-13 * largest);
    const std::vector<double> c = download(centers.data(), 4 * num_nodes);
    for (std::size_t k = 0; k < num_nodes; ++k)
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(c[4 * k + j], tree.nodes[k].center[j] - tree.nodes[0].center[j]);
  }
}

SolverOptions cuda_tree(TreeBuild build, Precision precision) {
  SolverOptions o;
  o.backend = Backend::Cuda;
  o.precision = precision;
  o.tree_build = build;
  o.tree.target_bucket = 64;
  o.tree.source_bucket = 128;
  o.far_field = FarField::M2P;  // the host-built path's far field (test_device_local_lists.cpp)
  return o;
}

// The whole device-built treecode equals the host-built one (the same trees and lists), for
// particles onto themselves and onto other targets, and says where it built them.
TEST(DeviceTreeSolver, EqualsTheHostBuiltTreecode) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p = plummer_sphere(20000, 17);
  const Points t = testing::random_points(7000, 18, -1, 1);
  for (Precision precision : {Precision::Double, Precision::Float}) {
    Solver host(cuda_tree(TreeBuild::Host, precision));
    Solver device(cuda_tree(TreeBuild::Device, precision));
    for (int call = 0; call < 2; ++call) {  // the second call reuses the device's storage
      const VelocityField h = host.evaluate(p, true);
      const VelocityField d = device.evaluate(p, true);
      EXPECT_EQ(h.stats.tree_build, "host");
      EXPECT_EQ(d.stats.tree_build, "device");
      EXPECT_EQ(d.stats.pair_interactions, h.stats.pair_interactions);
      EXPECT_EQ(d.stats.multipole_interactions, h.stats.multipole_interactions);
      // The set-up: one after the other on the host; on the device the upward pass overlaps the
      // lists, which follow the trees.
      const StageTimes &hs = h.stats.times, &ds = d.stats.times;
      EXPECT_DOUBLE_EQ(hs.setup, hs.tree + hs.lists + hs.multipole);
      EXPECT_GE(ds.setup, (ds.tree + ds.lists) * (1 - 1e-9));
      EXPECT_LT(ds.setup, ds.total);
      // The same sums; only the order of the particles within a leaf differs, which float
      // rounding sees.
      const double tolerance = precision == Precision::Double ? 1e-12 : 2e-6;
      EXPECT_LE(testing::relative_l2_velocity(d, h), tolerance);
      EXPECT_LE(testing::relative_l2_gradient(d, h), tolerance);
      const VelocityField ht = host.evaluate(p, PointsView(t), true);
      const VelocityField dt = device.evaluate(p, PointsView(t), true);
      EXPECT_LE(testing::relative_l2_velocity(dt, ht), tolerance);
      EXPECT_LE(testing::relative_l2_gradient(dt, ht), tolerance);
    }
  }
}

}  // namespace
}  // namespace vortex
