// Error metrics against a reference field, target sampling, and the direct reference itself.

#include "vortex/error_metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "support/reference.hpp"
#include "vortex/generators.hpp"

using namespace vortex;

namespace {

VelocityField field_of(std::vector<std::array<double, 3>> u,
                       std::vector<std::array<double, 9>> du = {}) {
  VelocityField f;
  f.resize(u.size(), !du.empty());
  for (std::size_t i = 0; i < u.size(); ++i) {
    for (int c = 0; c < 3; ++c) f.u[c][i] = u[i][c];
    for (int c = 0; c < 9 && !du.empty(); ++c) f.du[c][i] = du[i][c];
  }
  return f;
}

}  // namespace

TEST(ErrorMetrics, IdenticalFieldsHaveNoError) {
  const VelocityField f = field_of({{1, 2, 3}, {4, 5, 6}}, {{1, 2, 3, 4, 5, 6, 7, 8, 9}, {}});
  const FieldErrors e = compare_fields(f, f);
  EXPECT_EQ(e.n_sampled, 2u);
  EXPECT_TRUE(e.has_gradient);
  EXPECT_EQ(e.velocity_mean_rel, 0);
  EXPECT_EQ(e.velocity_rel_l2, 0);
  EXPECT_EQ(e.gradient_mean_rel, 0);
  EXPECT_EQ(e.gradient_rel_l2, 0);
}

TEST(ErrorMetrics, MeanRelativeAndGlobalL2ByHand) {
  const VelocityField reference =
      field_of({{1, 0, 0}, {0, 2, 0}}, {{3, 0, 0, 0, 0, 0, 0, 0, 4}, {0, 1, 0, 0, 0, 0, 0, 0, 0}});
  const VelocityField approx = field_of(
      {{1.1, 0, 0}, {0, 2, 0.2}}, {{3, 0, 0, 0, 0.5, 0, 0, 0, 4}, {0, 1, 0, 0, 0, 0, 0, 0, 0}});
  const FieldErrors e = compare_fields(approx, reference);
  // Velocity: errors 0.1 and 0.2 against norms 1 and 2.
  EXPECT_NEAR(e.velocity_mean_rel, (0.1 / 1 + 0.2 / 2) / 2, 1e-15);
  EXPECT_NEAR(e.velocity_rel_l2, std::sqrt((0.01 + 0.04) / (1 + 4)), 1e-15);
  // Gradient (Frobenius): error 0.5 against norm 5, then 0 against 1.
  EXPECT_NEAR(e.gradient_mean_rel, (0.5 / 5 + 0) / 2, 1e-15);
  EXPECT_NEAR(e.gradient_rel_l2, std::sqrt(0.25 / 26), 1e-15);
}

TEST(ErrorMetrics, SampledTargetsByIndex) {
  const VelocityField approx = field_of({{9, 9, 9}, {1, 0, 0}, {9, 9, 9}, {0, 0, 2}});
  const VelocityField reference = field_of({{1, 0, 0}, {0, 0, 1}});
  const FieldErrors e = compare_fields(approx, reference, {1, 3});
  EXPECT_EQ(e.n_sampled, 2u);
  EXPECT_FALSE(e.has_gradient);
  EXPECT_NEAR(e.velocity_mean_rel, 0.5, 1e-15);
  EXPECT_NEAR(e.velocity_rel_l2, std::sqrt(1.0 / 2), 1e-15);
  EXPECT_EQ(e.gradient_mean_rel, 0);
  EXPECT_THROW(compare_fields(approx, reference, {1, 4}), std::invalid_argument);
  EXPECT_THROW(compare_fields(approx, reference, {1}), std::invalid_argument);
  EXPECT_THROW(compare_fields(approx, reference), std::invalid_argument);
}

TEST(ErrorMetrics, ZeroReferenceIsLeftOutOfTheMean) {
  const VelocityField reference = field_of({{0, 0, 0}, {2, 0, 0}});
  const VelocityField approx = field_of({{0, 0, 0.1}, {2, 0, 0.2}});
  const FieldErrors e = compare_fields(approx, reference);
  EXPECT_NEAR(e.velocity_mean_rel, 0.1, 1e-15);
  EXPECT_NEAR(e.velocity_rel_l2, std::sqrt(0.05 / 4), 1e-15);
  EXPECT_EQ(e.n_sampled, 2u);
}

TEST(SampleIndices, DistinctSortedAndSeeded) {
  const auto s = sample_indices(10000, 1000, 42);
  ASSERT_EQ(s.size(), 1000u);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  EXPECT_EQ(std::set<std::size_t>(s.begin(), s.end()).size(), 1000u);
  EXPECT_LT(s.back(), 10000u);
  EXPECT_EQ(s, sample_indices(10000, 1000, 42));
  EXPECT_NE(s, sample_indices(10000, 1000, 43));
  // Spread over the whole range.
  EXPECT_LT(s.front(), 100u);
  EXPECT_GT(s.back(), 9900u);
  const auto all = sample_indices(50, 1000, 1);
  ASSERT_EQ(all.size(), 50u);
  for (std::size_t i = 0; i < 50; ++i) EXPECT_EQ(all[i], i);
  EXPECT_TRUE(sample_indices(0, 10, 1).empty());
}

TEST(SampleIndices, GatherPoints) {
  const ParticleSet p = random_cube(20, 3);
  const Points g = gather_points(p, {2, 5, 19});
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g.x[1], p.x[5]);
  EXPECT_EQ(g.z[2], p.z[19]);
  EXPECT_THROW(gather_points(p, {20}), std::invalid_argument);
}

TEST(ReferenceField, MatchesTheLongDoubleOracleOnASample) {
  const ParticleSet p = random_cube(400, 8);
  const auto indices = sample_indices(p.size(), 50, 9);
  const Points targets = gather_points(p, indices);
  for (Core core : {Core::Exponential, Core::Gaussian, Core::WinckelmansLeonard}) {
    const VelocityField ref = reference_field(p, targets, true, core, 1);
    EXPECT_EQ(ref.stats.backend, "cpu");
    EXPECT_EQ(ref.stats.precision, "double");
    const VelocityField oracle = vortex::testing::reference_direct(p, targets, core, true);
    const FieldErrors e = compare_fields(ref, oracle);
    EXPECT_LT(e.velocity_rel_l2, 1e-12) << static_cast<int>(core);
    EXPECT_LT(e.gradient_rel_l2, 1e-12) << static_cast<int>(core);
    // The self-evaluation at the sampled particles agrees with the sample (no self term).
    const VelocityField self = reference_field(p, p, true, core, 1);
    EXPECT_LT(compare_fields(self, ref, indices).gradient_rel_l2, 1e-14);
  }
}

// sampled_errors: the errors at a sample of targets against the long-double oracle there; a field
// off by a known factor at every target gives that factor as its mean error.
TEST(SampledErrors, AgainstTheLongDoubleOracleAndAKnownError) {
  const ParticleSet p = random_cube(500, 12);
  const Points targets = gather_points(p, sample_indices(p.size(), 300, 4));
  const VelocityField exact =
      vortex::testing::reference_direct(p, targets, Core::Exponential, true);
  VelocityField off = exact;
  for (int c = 0; c < 3; ++c)
    for (double& v : off.u[c]) v *= 1 + 3e-4;
  for (int c = 0; c < 9; ++c)
    for (double& v : off.du[c]) v *= 1 - 2e-3;
  const FieldErrors e = sampled_errors(p, targets, off, 40, Core::Exponential, 5, 1);
  EXPECT_EQ(e.n_sampled, 40u);
  EXPECT_TRUE(e.has_gradient);
  EXPECT_NEAR(e.velocity_mean_rel, 3e-4, 1e-10);
  EXPECT_NEAR(e.gradient_mean_rel, 2e-3, 1e-10);
  EXPECT_LT(sampled_errors(p, targets, exact, 40, Core::Exponential, 5, 1).velocity_mean_rel,
            1e-13);
  // Every target when the sample is larger; nothing for no targets; sizes must agree.
  EXPECT_EQ(sampled_errors(p, targets, off, 10000, Core::Exponential).n_sampled, 300u);
  EXPECT_EQ(sampled_errors(p, Points{}, VelocityField{}, 10, Core::Exponential).n_sampled, 0u);
  EXPECT_THROW(sampled_errors(p, p, off, 10, Core::Exponential), std::invalid_argument);
}
