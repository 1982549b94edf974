// The local expansions on the device: their lists equal the host's build entry for entry (the same
// choice from the same interaction lists and costs), and the device-built treecode with them equals
// the CPU's local expansions in double and keeps the direct sum's accuracy; with float terms it
// keeps float M2P's accuracy on nested scales and at the ends of the accepted lengths.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "support/device_copies.hpp"
#include "support/reference.hpp"
#include "vortex/generators.hpp"
#include "vortex/gpu/local_launch.hpp"
#include "vortex/gpu/tree_launch.hpp"
#include "vortex/local_expansion_lists.hpp"
#include "vortex/solver.hpp"

namespace vortex {
namespace {

namespace g = vortex::gpu;

using testing::download;
using testing::upload;

// The inner nodes of a host tree by level, as TreeShape holds them.
void inner_by_level(const KdTree& t, std::vector<int>& nodes, std::vector<int>& start) {
  int depth = 0;
  for (const KdNode& n : t.nodes) depth = std::max(depth, n.level);
  start.assign(depth + 2, 0);
  nodes.clear();
  for (int l = 0; l <= depth; ++l) {
    start[l] = static_cast<int>(nodes.size());
    for (int k = 0; k < static_cast<int>(t.nodes.size()); ++k)
      if (t.nodes[k].level == l && !t.nodes[k].is_leaf()) nodes.push_back(k);
  }
  start[depth + 1] = static_cast<int>(nodes.size());
}

// The device's lists for `mode` and `costs`, compared with the host's; returns the host's M2L
// count.
std::size_t expect_equal_lists(const KdTree& targets, const KdTree& sources, double theta,
                               FarField mode, const FarFieldCosts& costs) {
  const InteractionLists il =
      build_interaction_lists(targets, sources, AcceptanceCriteria{theta, 2.4});
  LocalExpansionLists host;
  build_local_expansion_lists(targets, sources, il, theta, mode, costs, host);
  const std::size_t nodes = targets.nodes.size(), leaves = targets.leaves.size();
  std::vector<int> by_level, level_start;
  inner_by_level(targets, by_level, level_start);
  const auto t_nodes = upload(targets.nodes);
  const auto s_nodes = upload(sources.nodes);
  const auto t_leaves = upload(targets.leaves);
  const auto d_by_level = upload(by_level);
  const auto far_offsets = upload(il.far_offsets);
  const auto far_nodes = upload(il.far_nodes);
  const auto far_orders = upload(il.far_orders);
  // The storage the solver's path uses (far/local_field_cuda.cpp), filled as it fills it.
  g::LocalListStorage storage;
  g::LocalLists l;
  storage.attach(l, static_cast<int>(nodes), static_cast<int>(leaves),
                 static_cast<int>(sources.nodes.size()));
  l.targets = t_nodes.data();
  l.leaves = t_leaves.data();
  l.inner_by_level = d_by_level.data();
  l.sources = s_nodes.data();
  l.far_offsets = far_offsets.data();
  l.far_nodes = far_nodes.data();
  l.far_orders = far_orders.data();
  l.theta = theta;
  l.mode = mode;
  l.costs = costs;
  g::DeviceBuffer<unsigned char> temp;
  g::launch_local_rooms(l, level_start, temp, nullptr);
  const long long slots = download(l.slot_offsets, nodes + 1).back();
  storage.attach_slots(l, slots);
  VORTEX_CUDA_CHECK(cudaMemset(l.counters, 0, 3 * sizeof(unsigned long long)));
  g::launch_local_may_take(l, nullptr);
  // The bound never says no where the host takes some.
  if (host.m2l_count > 0) EXPECT_EQ(download(l.may_take, 1)[0], 1);
  g::launch_local_choice(l, level_start, temp, nullptr);
  storage.attach_m2p(l, static_cast<long long>(il.far_nodes.size()));
  g::launch_local_m2p(l, temp, nullptr);
  const std::vector<int> m2p_offsets = download(l.m2p_offsets, leaves + 1);
  EXPECT_EQ(m2p_offsets, host.m2p_offsets);
  if (m2p_offsets != host.m2p_offsets) return host.m2l_count;
  EXPECT_EQ(download(l.m2p_nodes, m2p_offsets.back()), host.m2p_nodes);
  EXPECT_EQ(download(l.m2p_orders, m2p_offsets.back()), host.m2p_orders);
  const std::vector<unsigned char> local = download(l.has_local, nodes);
  EXPECT_EQ(local, host.has_local);
  // Each node's M2L list, from its slot.
  const std::vector<long long> off = download(l.slot_offsets, nodes + 1);
  const std::vector<int> count = download(l.m2l_count, nodes);
  const std::vector<int> lists = download(l.m2l, std::max<long long>(slots, 1));
  for (std::size_t t = 0; t < nodes; ++t) {
    const std::vector<int> d(lists.begin() + off[t], lists.begin() + off[t] + count[t]);
    const std::vector<int> h(host.m2l_nodes.begin() + host.m2l_offsets[t],
                             host.m2l_nodes.begin() + host.m2l_offsets[t + 1]);
    EXPECT_EQ(d, h) << "node " << t;
  }
  const std::vector<unsigned long long> ops = download(l.counters, 3);
  EXPECT_EQ(ops[0], host.m2l_count);
  EXPECT_EQ(ops[2], host.l2p_targets);
  return host.m2l_count;
}

TEST(DeviceLocalLists, EqualTheHostLists) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p = plummer_sphere(8000, 5);
  const Points t = testing::random_points(6000, 6, -1.5, 1.5);
  // Costs that make M2L pay at nodes of more than about 100 targets.
  const FarFieldCosts costs{1e-7, 1e-7, 1e-9, 1e-9};
  std::size_t translations = 0;  // the cases must take some M2L
  for (int arity : {2, 8}) {
    const KdTree sources = build_kdtree(PointsView(p), p.sigma.data(), 32, arity);
    const KdTree targets = build_kdtree(PointsView(t), nullptr, 32, arity);
    const KdTree self = build_kdtree(PointsView(p), nullptr, 32, arity);
    for (double theta : {0.4, 0.7}) {
      for (FarField mode : {FarField::Local, FarField::Auto}) {
        SCOPED_TRACE("arity " + std::to_string(arity) + ", theta " + std::to_string(theta) +
                     (mode == FarField::Local ? ", local" : ", auto"));
        translations += expect_equal_lists(targets, sources, theta, mode, costs);
        translations += expect_equal_lists(self, sources, theta, mode, costs);
      }
    }
  }
  EXPECT_GT(translations, 1000u);
}

SolverOptions options(Backend backend, FarField far_field) {
  SolverOptions o;
  o.backend = backend;
  o.precision = Precision::Double;
  o.far_field = far_field;
  o.tree.order = 8;
  o.tree.theta = 0.5;
  o.tree.target_bucket = 32;
  o.tree.source_bucket = 64;
  return o;
}

// In double, with every M2L the acceptance allows (the same lists on both backends whatever their
// costs), the device's local expansions give the CPU's results to rounding; Auto takes some on the
// device too, and every choice keeps the direct sum's accuracy.
TEST(DeviceLocalField, EqualsTheHostLocalExpansions) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p = plummer_sphere(30000, 21);
  const Points t = testing::random_points(5000, 22, -1, 1);
  Solver cpu(options(Backend::Cpu, FarField::Local));
  Solver gpu_local(options(Backend::Cuda, FarField::Local));
  Solver gpu_auto(options(Backend::Cuda, FarField::Auto));
  Solver gpu_m2p(options(Backend::Cuda, FarField::M2P));
  SolverOptions direct_options = options(Backend::Cpu, FarField::M2P);
  direct_options.method = Method::Direct;
  Solver direct(direct_options);
  for (int call = 0; call < 2; ++call) {  // the second call reuses the storage
    const VelocityField h = cpu.evaluate(p, PointsView(t), true);
    const VelocityField d = gpu_local.evaluate(p, PointsView(t), true);
    EXPECT_EQ(h.stats.far_field, "local");
    EXPECT_EQ(d.stats.far_field, "local");
    EXPECT_EQ(d.stats.m2l_translations, h.stats.m2l_translations);
    EXPECT_EQ(d.stats.l2p_targets, h.stats.l2p_targets);
    EXPECT_EQ(d.stats.multipole_interactions, h.stats.multipole_interactions);
    EXPECT_LE(testing::relative_l2_velocity(d, h), 1e-11);
    EXPECT_LE(testing::relative_l2_gradient(d, h), 1e-11);
    const VelocityField exact = direct.evaluate(p, PointsView(t), true);
    const VelocityField m = gpu_m2p.evaluate(p, PointsView(t), true);
    const VelocityField a = gpu_auto.evaluate(p, PointsView(t), true);
    EXPECT_EQ(m.stats.far_field, "m2p");
    EXPECT_LE(a.stats.multipole_interactions, m.stats.multipole_interactions);
    const double e_m2p = testing::relative_l2_velocity(m, exact);
    for (const VelocityField* f : {&d, &a}) {
      EXPECT_LE(testing::relative_l2_velocity(*f, exact), 1.5 * e_m2p);
      EXPECT_LE(testing::relative_l2_gradient(*f, exact),
                1.5 * testing::relative_l2_gradient(m, exact));
    }
    // The self-evaluation takes the same path.
    const VelocityField hs = cpu.evaluate(p, true);
    const VelocityField ds = gpu_local.evaluate(p, true);
    EXPECT_LE(testing::relative_l2_velocity(ds, hs), 1e-11);
    EXPECT_LE(testing::relative_l2_gradient(ds, hs), 1e-11);
  }
}

// A cloud with half its particles in a cube a hundredth of its size (two_scale_cube), and the
// device's local expansions with float terms.
ParticleSet nested_cloud(std::size_t n, std::uint64_t seed) {
  TwoScaleOptions scales;
  scales.ratio = 100;
  return two_scale_cube(n, seed, scales);
}

SolverOptions float_local() {
  SolverOptions o = options(Backend::Cuda, FarField::Local);
  o.precision = Precision::Float;
  return o;
}

// Float terms: each translation is summed at its own scale, so a cube a hundredth of the cloud's
// size (where M2L at order 8 reads harmonics of degree 18 at |t| < 0.01, beyond float's range
// unscaled) keeps the accuracy of float M2P against the double direct sum; in double the M2L stays
// the CPU's to rounding.
TEST(DeviceLocalField, FloatTermsKeepTheAccuracyOfNestedScales) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p = nested_cloud(30000, 23);
  Points t;
  for (std::size_t i = 0; i < p.size(); i += 29) {
    t.x.push_back(p.x[i]);
    t.y.push_back(p.y[i]);
    t.z.push_back(p.z[i]);
  }
  const SolverOptions local_options = float_local();
  SolverOptions m2p_options = local_options;
  m2p_options.far_field = FarField::M2P;
  SolverOptions direct_options = options(Backend::Cpu, FarField::M2P);
  direct_options.method = Method::Direct;
  Solver local(local_options), m2p(m2p_options), direct(direct_options);
  Solver cpu(options(Backend::Cpu, FarField::Local)), gpu(options(Backend::Cuda, FarField::Local));
  const VelocityField exact = direct.evaluate(p, PointsView(t), true);
  const VelocityField fl = local.evaluate(p, PointsView(t), true);
  const VelocityField fm = m2p.evaluate(p, PointsView(t), true);
  EXPECT_EQ(fl.stats.far_field, "local");
  EXPECT_GT(fl.stats.m2l_translations, 300u);
  // The stages' report: the M2P kernel timed apart inside the far field, and the card's peak.
  EXPECT_GT(fl.stats.times.m2p, 0);
  EXPECT_LT(fl.stats.times.m2p + fl.stats.times.m2l, fl.stats.times.far);
  EXPECT_GT(fl.stats.device_fp32_peak, 1e12);
  const double ev = testing::relative_l2_velocity(fl, exact);
  const double eg = testing::relative_l2_gradient(fl, exact);
  EXPECT_LE(ev, 1.5 * testing::relative_l2_velocity(fm, exact)) << ev;
  EXPECT_LE(eg, 1.5 * testing::relative_l2_gradient(fm, exact)) << eg;
  EXPECT_LE(ev, 2e-4);
  const VelocityField h = cpu.evaluate(p, PointsView(t), true);
  const VelocityField d = gpu.evaluate(p, PointsView(t), true);
  EXPECT_EQ(d.stats.m2l_translations, h.stats.m2l_translations);
  EXPECT_LE(testing::relative_l2_velocity(d, h), 1e-11);
  EXPECT_LE(testing::relative_l2_gradient(d, h), 1e-11);
}

// The float terms at the ends of the accepted lengths (x, sigma times s, Gamma times s^2): the
// internal units are powers of two, so the device sums the same problem and the field comes back
// scaled (u unchanged, the gradient over s) to float's rounding of the unscaled call.
TEST(DeviceLocalField, FloatTermsAtExtremeScalesGiveTheUnscaledField) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  const ParticleSet p = nested_cloud(20000, 24);
  Solver solver(float_local());
  const VelocityField ref = solver.evaluate(p, true);
  EXPECT_GT(ref.stats.m2l_translations, 100u);
  for (double s : {std::ldexp(1.0, -300), std::ldexp(1.0, 300)}) {
    SCOPED_TRACE("scale 2^" + std::to_string(std::ilogb(s)));
    VelocityField f = solver.evaluate(testing::scaled(p, s), true);
    EXPECT_EQ(f.stats.m2l_translations, ref.stats.m2l_translations);
    for (auto& c : f.du)
      for (double& v : c) v *= s;
    EXPECT_LE(testing::relative_l2_velocity(f, ref), 1e-6);
    EXPECT_LE(testing::relative_l2_gradient(f, ref), 1e-6);
  }
}

}  // namespace
}  // namespace vortex
