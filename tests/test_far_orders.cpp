// Per-box orders of the far field (far_order in kernels/acceptance.hpp): each far box gets the
// lowest order whose truncation factor meets the bound, and the Solver evaluated with them stays
// as accurate, against the double direct sum, as with every box at the full order.

#include <gtest/gtest.h>

#include <cmath>

#include "support/reference.hpp"
#include "vortex/generators.hpp"
#include "vortex/interaction_lists.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

TEST(FarOrders, EachBoxTakesTheLowestOrderWithinTheBound) {
  const ParticleSet p = plummer_sphere(20000, 5);
  const KdTree s = build_kdtree(PointsView(p), p.sigma.data(), 32, 8);
  const KdTree t = build_kdtree(PointsView(p), nullptr, 32, 8);
  const int order = 9;
  const double theta = 0.55;
  const AcceptanceCriteria criteria = criteria_with_orders(theta, 2, order, false);
  EXPECT_DOUBLE_EQ(criteria.order_bound, kFarOrderSlack * std::pow(theta, order + 1));
  const InteractionLists lists = build_interaction_lists(t, s, criteria);
  ASSERT_EQ(lists.far_orders.size(), lists.far_nodes.size());
  ASSERT_GT(lists.far_nodes.size(), 1000u);
  int lowest = order;
  for (std::size_t leaf = 0; leaf < t.leaves.size(); ++leaf) {
    const KdNode& box = t.nodes[t.leaves[leaf]];
    for (int k = lists.far_offsets[leaf]; k < lists.far_offsets[leaf + 1]; ++k) {
      const KdNode& node = s.nodes[lists.far_nodes[k]];
      const int q = lists.far_orders[k];
      ASSERT_GE(q, 1);
      ASSERT_LE(q, order);
      // The distance from the box's center to the nearest point of the target box, from its
      // corners' coordinates.
      double d2 = 0;
      for (int c = 0; c < 3; ++c) {
        const double x = node.center[c];
        const double gap = x < box.lo[c] ? box.lo[c] - x : (x > box.hi[c] ? x - box.hi[c] : 0);
        d2 += gap * gap;
      }
      const double rho = node.radius / std::sqrt(d2);
      ASSERT_LE(rho, theta);
      const double bound = criteria.order_bound * (1 + 1e-12);
      if (q < order) EXPECT_LE(std::pow(rho, q + 1), bound) << "entry " << k;
      if (q > 1) EXPECT_GT(std::pow(rho, q), criteria.order_bound * (1 - 1e-12)) << "entry " << k;
      lowest = std::min(lowest, q);
    }
  }
  EXPECT_LE(lowest, order - 3);  // the test has lower orders to check
  // Uniform: every box at the full order.
  const InteractionLists uniform =
      build_interaction_lists(t, s, criteria_with_orders(theta, 2, order, true));
  ASSERT_EQ(uniform.far_nodes, lists.far_nodes);
  for (unsigned char q : uniform.far_orders) ASSERT_EQ(q, order);
}

TEST(FarOrders, SolverAsAccurateAsEveryBoxAtTheFullOrder) {
  for (const bool clustered : {false, true}) {
    SCOPED_TRACE(clustered ? "Plummer sphere" : "cube");
    const ParticleSet p =
        clustered ? plummer_sphere(12000, 8) : testing::random_cube(12000, 52, 0.002);
    SolverOptions direct;
    direct.backend = Backend::Cpu;
    direct.method = Method::Direct;
    const VelocityField ref = Solver(direct).evaluate(p, true);
    SolverOptions o;
    o.backend = Backend::Cpu;
    o.precision = Precision::Double;
    o.far_field = FarField::M2P;
    o.tree = {8, 0.55, default_kappa(o.core), 32, 32, 8};
    const VelocityField box = Solver(o).evaluate(p, true);
    o.tree.uniform_order = true;
    const VelocityField full = Solver(o).evaluate(p, true);
    EXPECT_EQ(box.stats.multipole_interactions, full.stats.multipole_interactions);
    const double u_box = testing::mean_relative_velocity(box, ref);
    const double u_full = testing::mean_relative_velocity(full, ref);
    const double du_box = testing::mean_relative_gradient(box, ref);
    const double du_full = testing::mean_relative_gradient(full, ref);
    // Lower orders were used: the fields differ by more than rounding.
    EXPECT_GT(testing::relative_l2_velocity(box, full), 1e-9);
    // and cost at most a small part of the accuracy.
    EXPECT_LT(u_box, 1.5 * u_full);
    EXPECT_LT(du_box, 1.5 * du_full);
    EXPECT_LT(u_box, 2e-4);
    EXPECT_LT(du_box, 2e-4);
  }
}

}  // namespace
}  // namespace vortex
