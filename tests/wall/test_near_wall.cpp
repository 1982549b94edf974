// The near-wall sums of the BEM right-hand side: the CPU gather and the GPU kernel against a plain
// double loop over every (panel, particle) pair.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/near_wall.hpp"
#include "vortex/solver.hpp"

namespace vortex::bodies {
namespace {

// Particles at random heights above random panels of a thin ellipsoid, within and beyond the
// reach of the wall, with reaches of two sizes.
NearWallParticles particles_near(const Surface& s, int n, double near) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::size_t> panel(0, s.size() - 1);
  std::uniform_real_distribution<double> u(0, 1), g(-1, 1);
  NearWallParticles p;
  for (int k = 0; k < n; ++k) {
    const Panel& pn = s.panels[panel(rng)];
    const double a = u(rng), b = u(rng) * (1 - a);
    const Vec3 at = panel_point(pn, a, b, 1 - a - b) + (1.5 * near * u(rng)) * pn.normal;
    const double sigma = k % 5 == 0 ? 0.6 * near : 0.2 * near;
    p.push_back(at, {g(rng), g(rng), g(rng)}, 1 / sigma, std::max(near, 2.5 * sigma));
  }
  return p;
}

std::vector<Vec3> every_pair(const Surface& s, const TriangleRule& rule, Core core,
                             const NearWallParticles& p) {
  std::vector<double> bary;
  for (const auto& b : rule.bary) bary.insert(bary.end(), b.begin(), b.end());
  const RuleView view{reinterpret_cast<const double(*)[3]>(bary.data()), rule.weight.data(),
                      static_cast<int>(rule.size())};
  std::vector<Vec3> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i)
    for (std::size_t k = 0; k < p.size(); ++k) {
      const Vec3 x{p.x[k], p.y[k], p.z[k]};
      if (near_wall_pair(s.panels[i].centroid, x, p.reach[k], s.max_diameter))
        out[i] +=
            near_wall_term(s.panels[i], view, core, x, {p.gx[k], p.gy[k], p.gz[k]}, p.inv_sigma[k]);
    }
  return out;
}

struct Case {
  Surface surface = make_surface(ellipsoid(8, 0.5, 0.5, 0.1));
  TriangleRule rule = triangle_rule(3);
  NearWallParticles particles = particles_near(surface, 3000, 2.5 * surface.max_diameter);
  std::vector<Vec3> reference = every_pair(surface, rule, Core::Exponential, particles);
};

TEST(NearWallSums, CpuGatherEqualsEveryPair) {
  const Case c;
  std::size_t touched = 0;
  for (const Vec3& v : c.reference) touched += norm(v) > 0;
  EXPECT_GT(touched, c.surface.size() / 2);  // most panels have particles within reach
  NearWallSums sums(c.surface, c.rule, Backend::Cpu);
  EXPECT_EQ(sums.backend(), Backend::Cpu);
  std::vector<Vec3> out;
  sums.compute(Core::Exponential, c.particles, out);
  ASSERT_EQ(out.size(), c.surface.size());
  for (std::size_t i = 0; i < out.size(); ++i) {  // the same pairs in the same order
    EXPECT_EQ(out[i].x, c.reference[i].x) << i;
    EXPECT_EQ(out[i].y, c.reference[i].y) << i;
    EXPECT_EQ(out[i].z, c.reference[i].z) << i;
  }
  sums.compute(Core::Exponential, NearWallParticles{}, out);
  EXPECT_EQ(out.size(), c.surface.size());
  EXPECT_EQ(norm(out[0]), 0.0);
}

TEST(NearWallSums, GpuEqualsEveryPairToRounding) {
  if (!cuda_available()) {
    const Surface s = make_surface(sphere(2, 0.5));
    const TriangleRule rule = triangle_rule(3);
    EXPECT_ANY_THROW(NearWallSums(s, rule, Backend::Cuda));
    GTEST_SKIP() << "no CUDA device";
  }
  const Case c;
  NearWallSums sums(c.surface, c.rule, Backend::Cuda);
  EXPECT_EQ(sums.backend(), Backend::Cuda);
  std::vector<Vec3> out, again;
  sums.compute(Core::Exponential, c.particles, out);
  sums.compute(Core::Exponential, c.particles, again);
  double largest = 0;
  for (const Vec3& v : c.reference) largest = std::max(largest, norm(v));
  ASSERT_EQ(out.size(), c.surface.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_LE(norm(out[i] - c.reference[i]), 1e-12 * largest) << i;
    EXPECT_EQ(out[i].x, again[i].x) << i;  // the same order of sums every call
    EXPECT_EQ(out[i].y, again[i].y) << i;
    EXPECT_EQ(out[i].z, again[i].z) << i;
  }
}

}  // namespace
}  // namespace vortex::bodies
