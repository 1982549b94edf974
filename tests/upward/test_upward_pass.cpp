// The treecode's pipeline on a tree built by hand: P2M on two leaves, M2M to their parent, a far
// list naming only the parent, and M2P at far targets on each backend, against the singular
// direct sum. The upward pass is checked on its own too: the root's monopole is the total strength,
// and M2M of the leaves equals P2M of all particles about the root's center.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "backend/backend.hpp"
#include "support/backends.hpp"
#include "support/reference.hpp"
#include "vortex/multipole/expansion.hpp"

namespace vortex {
namespace {

// A node over [begin, end) of the tree-ordered particles, its box tight around them.
KdNode node_over(const ParticleSet& s, int begin, int end, int level) {
  KdNode n;
  n.begin = begin;
  n.end = end;
  n.level = level;
  for (int k = 0; k < 3; ++k) n.lo[k] = 1e300, n.hi[k] = -1e300;
  for (int i = begin; i < end; ++i) {
    const double p[3] = {s.x[i], s.y[i], s.z[i]};
    for (int k = 0; k < 3; ++k)
      n.lo[k] = std::min(n.lo[k], p[k]), n.hi[k] = std::max(n.hi[k], p[k]);
  }
  for (int k = 0; k < 3; ++k) n.center[k] = 0.5 * (n.lo[k] + n.hi[k]);
  for (int i = begin; i < end; ++i)
    n.radius = std::max(
        n.radius, std::hypot(s.x[i] - n.center[0], s.y[i] - n.center[1], s.z[i] - n.center[2]));
  return n;
}

// Two clusters of 5 particles under one root; targets on a sphere of radius 4 around them.
detail::TreePlan hand_built_plan(int order) {
  detail::TreePlan plan;
  plan.order = order;
  ParticleSet& s = plan.sources;
  const ParticleSet cloud = testing::random_cube(10, 7, 0.01);
  for (std::size_t i = 0; i < cloud.size(); ++i)
    s.push_back(0.3 * cloud.x[i] + (i < 5 ? 0.0 : 0.5), 0.3 * cloud.y[i], 0.3 * cloud.z[i],
                cloud.gx[i], cloud.gy[i], cloud.gz[i], cloud.sigma[i]);
  KdTree& st = plan.source_tree;
  st.nodes = {node_over(s, 0, 10, 0), node_over(s, 0, 5, 1), node_over(s, 5, 10, 1)};
  st.nodes[0].first_child = 1;
  st.nodes[0].num_children = 2;
  st.nodes[1].parent = st.nodes[2].parent = 0;
  st.leaves = {1, 2};
  st.arity = 2;
  st.bucket = 5;
  for (std::size_t i = 0; i < s.size(); ++i) st.permutation.push_back(i);

  const Points dirs = testing::random_points(40, 8, -1, 1);
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const double r = std::hypot(dirs.x[i], dirs.y[i], dirs.z[i]);
    plan.targets.push_back(0.4 + 4 * dirs.x[i] / r, 4 * dirs.y[i] / r, 4 * dirs.z[i] / r);
  }
  KdTree& tt = plan.target_tree;
  KdNode target;
  target.begin = 0;
  target.end = static_cast<int>(plan.targets.size());
  tt.nodes = {target};
  tt.leaves = {0};
  for (std::size_t i = 0; i < plan.targets.size(); ++i) tt.permutation.push_back(i);
  // The far list of the one target leaf names the root only; nothing is near.
  plan.lists.near_offsets = {0, 0};
  plan.lists.far_offsets = {0, 1};
  plan.lists.far_nodes = {0};
  plan.lists.far_orders = {static_cast<unsigned char>(order)};  // the root at the full order
  return plan;
}

TEST(UpwardPass, RootHoldsTheTotalStrengthAndEqualsDirectP2M) {
  const int p = 6;
  detail::TreePlan plan = hand_built_plan(p);
  detail::compute_multipoles(plan);
  const int count = multipole::coefficient_count(p);
  ASSERT_EQ(plan.multipoles.size(), 3u * count * plan.source_tree.nodes.size());
  // P2M of every particle about the root's center, directly.
  std::vector<double> direct(3 * count, 0.0);
  const ParticleSet& s = plan.sources;
  const double* c = plan.source_tree.nodes[0].center;
  for (std::size_t j = 0; j < s.size(); ++j)
    multipole::p2m(p, s.x[j] - c[0], s.y[j] - c[1], s.z[j] - c[2], s.gx[j], s.gy[j], s.gz[j],
                   direct.data());
  double total[3] = {0, 0, 0};
  for (std::size_t j = 0; j < s.size(); ++j)
    total[0] += s.gx[j], total[1] += s.gy[j], total[2] += s.gz[j];
  double scale = 0;
  for (double v : direct) scale = std::max(scale, std::abs(v));
  for (int e = 0; e < 3; ++e) EXPECT_NEAR(plan.multipoles[e * count], total[e], 1e-15 * scale);
  // M2M is exact: the shifted leaves equal the root's own P2M to rounding.
  for (int k = 0; k < 3 * count; ++k) EXPECT_NEAR(plan.multipoles[k], direct[k], 1e-13 * scale);
}

class Pipeline : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override { VORTEX_SKIP_WITHOUT(GetParam()); }
};

TEST_P(Pipeline, FarListThroughTheBackendMatchesTheDirectSum) {
  const auto backend =
      GetParam() == Backend::Cpu ? detail::make_cpu_backend() : detail::make_cuda_backend();
  for (const testing::Arithmetic& a : testing::arithmetics(GetParam())) {
    for (int p : {4, 8}) {
      SCOPED_TRACE(to_string(a.precision) + ", p = " + std::to_string(p));
      detail::TreePlan plan = hand_built_plan(p);
      SolverOptions o;
      o.core = Core::Singular;
      o.precision = a.precision;
      o.tree.order = p;
      const detail::ResolvedOptions resolved = detail::resolve_options(o, GetParam());
      EvaluationStats stats;
      const detail::ComponentView v = backend->tree_sum(plan, resolved, true, stats);
      const VelocityField ref =
          testing::reference_direct(plan.sources, plan.targets, Core::Singular, true);
      VelocityField f;
      f.resize(plan.targets.size(), true);
      for (std::size_t i = 0; i < plan.targets.size(); ++i) {
        for (int c = 0; c < 3; ++c) f.u[c][i] = v.component[c][i];
        for (int c = 0; c < 9; ++c) f.du[c][i] = v.component[3 + c][i];
      }
      // The root's radius over the targets' distance from its center bounds the truncation:
      // (r/d)^(p+1) / (1 - r/d), one power less for the gradient; plus the arithmetic's rounding.
      const KdNode& root = plan.source_tree.nodes[0];
      double nearest = 1e300;
      for (std::size_t i = 0; i < plan.targets.size(); ++i)
        nearest = std::min(nearest, std::hypot(plan.targets.x[i] - root.center[0],
                                               plan.targets.y[i] - root.center[1],
                                               plan.targets.z[i] - root.center[2]));
      const double ratio = root.radius / nearest;
      const double bound_u = std::pow(ratio, p + 1) / (1 - ratio) + a.tolerance;
      const double bound_du = std::pow(ratio, p) / (1 - ratio) + a.tolerance;
      EXPECT_LT(testing::relative_l2_velocity(f, ref), bound_u);
      EXPECT_LT(testing::relative_l2_gradient(f, ref), bound_du);
      // And the expansion is not exact: the comparison has something to find.
      if (p == 4) EXPECT_GT(testing::relative_l2_velocity(f, ref), 1e-12);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, Pipeline, ::testing::ValuesIn(testing::kBackends),
                         testing::BackendName());

}  // namespace
}  // namespace vortex
