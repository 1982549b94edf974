// Per-box orders of the far field (far_order in math/acceptance.hpp): each far box gets the
// lowest order whose truncation factor meets the bound, and the Solver evaluated with them stays
// as accurate, against the double direct sum, as with every box at the full order.

#include <gtest/gtest.h>

#include <cmath>

#include "support/reference.hpp"
#include "vortex/generators.hpp"
#include "vortex/interaction_lists.hpp"
#include "vortex/multipole/gradient_expansion.hpp"
#include "vortex/multipole/m2p.hpp"
#include "vortex/multipole/m2p_batch.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

namespace mp = multipole;

// An expansion of order P read at order q (its first degrees) gives what the expansion built at
// order q gives: on the path the GPU runs (m2p.hpp with a run-time order) and on the CPU's lanes
// (the gradient expansion's first slots).
TEST(FarOrders, AnExpansionReadAtALowerOrderIsThatOrdersExpansion) {
  constexpr int P = 10;
  const ParticleSet p = testing::random_cube(40, 3);
  const double c[4] = {0.5, 0.5, 0.5, 1.0};  // center; scale 1: expansions as they are
  auto velocity_expansion = [&](int order) {
    std::vector<double> M(3 * mp::coefficient_count(order), 0.0);
    for (std::size_t j = 0; j < p.size(); ++j)
      mp::p2m(order, p.x[j] - c[0], p.y[j] - c[1], p.z[j] - c[2], p.gx[j], p.gy[j], p.gz[j],
              M.data());
    std::vector<double> V(mp::velocity_expansion_size(order));
    mp::m2v(order, M.data(), V.data());
    return V;
  };
  auto gradient_expansion = [&](int order) {
    const std::vector<double> V = velocity_expansion(order);
    std::vector<double> G(mp::gradient_expansion_size(order));
    mp::gradient_expansion(order, V.data(), G.data());
    return G;
  };
  const std::vector<double> VP = velocity_expansion(P), GP = gradient_expansion(P);
  const double x[3] = {1.9, -0.7, 2.4}, y[3] = {0.3, 2.2, -1.1}, z[3] = {1.2, 0.4, 2.0};
  for (int q : {1, 3, 6, 9}) {
    SCOPED_TRACE("q = " + std::to_string(q));
    const std::vector<double> Vq = velocity_expansion(q), Gq = gradient_expansion(q);
    for (int i = 0; i < 3; ++i) {
      VelocityGradientAccumulator<double> a, b;
      mp::m2p_velocity_gradient<P>(VP.data(), x[i] - c[0], y[i] - c[1], z[i] - c[2], a, q);
      dispatch_order(q, "test", [&](auto Q) {
        mp::m2p_velocity_gradient<decltype(Q)::value>(Vq.data(), x[i] - c[0], y[i] - c[1],
                                                      z[i] - c[2], b);
      });
      VelocityAccumulator<double> u, w;
      mp::m2p_velocity<P>(VP.data(), x[i] - c[0], y[i] - c[1], z[i] - c[2], u, q);
      dispatch_order(q, "test", [&](auto Q) {
        mp::m2p_velocity<decltype(Q)::value>(Vq.data(), x[i] - c[0], y[i] - c[1], z[i] - c[2], w);
      });
      for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(a.u[k], b.u[k], 1e-13 * std::abs(b.u[k]) + 1e-16);
        EXPECT_NEAR(u.u[k], w.u[k], 1e-13 * std::abs(w.u[k]) + 1e-16);
        EXPECT_NEAR(a.u[k], u.u[k], 1e-13 * std::abs(u.u[k]) + 1e-16);
      }
      for (int k = 0; k < 9; ++k) EXPECT_NEAR(a.du[k], b.du[k], 1e-13 * std::abs(b.du[k]) + 1e-16);
    }
    // The CPU lanes (16 targets: whole vectors of any width), the first slots of the order-P
    // expansion.
    constexpr int kLanes = 16;
    double lx[kLanes], ly[kLanes], lz[kLanes];
    for (int i = 0; i < kLanes; ++i)
      lx[i] = x[i % 3] + 0.01 * i, ly[i] = y[i % 3], lz[i] = z[i % 3];
    double sums_p[12 * kLanes] = {}, sums_q[12 * kLanes] = {};
    const mp::LeafLanes<double> lanes_p{lx, ly, lz, kLanes, sums_p},
        lanes_q{lx, ly, lz, kLanes, sums_q};
    dispatch_order(q, "test", [&](auto Q) {
      mp::m2p_velocity_gradient_lanes<decltype(Q)::value>(GP.data(), c, lanes_p);
      mp::m2p_velocity_gradient_lanes<decltype(Q)::value>(Gq.data(), c, lanes_q);
    });
    for (int k = 0; k < 12 * kLanes; ++k)
      EXPECT_NEAR(sums_p[k], sums_q[k], 1e-13 * std::abs(sums_q[k]) + 1e-16) << k;
    // and the order matters: order q differs from order P.
    VelocityAccumulator<double> full, part;
    mp::m2p_velocity<P>(VP.data(), x[0] - c[0], y[0] - c[1], z[0] - c[2], full);
    mp::m2p_velocity<P>(VP.data(), x[0] - c[0], y[0] - c[1], z[0] - c[2], part, q);
    EXPECT_GT(std::abs(full.u[0] - part.u[0]), 1e-14 * std::abs(full.u[0]));
  }
}

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
