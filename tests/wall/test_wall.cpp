// The wall: closest points against brute-force sampling and the exact sphere, inside tests,
// reflection and push-out of particles, segments that leave the fluid; shedding conserves the
// sheet's circulation and puts every particle in the fluid; the VRM with the wall keeps neighbours
// and inserted particles out of the body and still conserves the total vorticity.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "vortex/bodies/bem_solver.hpp"
#include "vortex/bodies/mesh_generators.hpp"
#include "vortex/bodies/shedding.hpp"
#include "vortex/bodies/sheet.hpp"
#include "vortex/bodies/wall.hpp"
#include "vortex/solver.hpp"
#include "vortex/vrm.hpp"

namespace vortex::bodies {
namespace {

TEST(Wall, ClosestPointOnTriangleMatchesSampling) {
  const Vec3 a{0, 0, 0}, b{1, 0.1, 0}, c{0.2, 0.9, 0.1};
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 2);
  for (int t = 0; t < 50; ++t) {
    const Vec3 x{u(rng), u(rng), u(rng) - 0.5};
    const double d = norm(x - closest_point_on_triangle(x, a, b, c));
    double best = 1e9;
    const int n = 300;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; i + j <= n; ++j) {
        const Vec3 y = (1.0 - double(i + j) / n) * a + (double(i) / n) * b + (double(j) / n) * c;
        best = std::min(best, norm(x - y));
      }
    EXPECT_LE(d, best + 1e-12);
    EXPECT_GT(d, best - 5e-3);
  }
}

TEST(Wall, SignedDistanceAndInsideOnASphere) {
  const Surface s = make_surface(sphere(10, 0.5));
  const WallQueries wall(s);
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> u(-1, 1);
  const double sagitta = 0.5 * (1 - std::cos(s.max_diameter / 0.5));
  for (int t = 0; t < 200; ++t) {
    const Vec3 x{u(rng), u(rng), u(rng)};
    const double r = norm(x);
    const WallPoint w = wall.closest(x);
    EXPECT_NEAR(w.distance, r - 0.5, sagitta + 1e-12);
    if (std::abs(r - 0.5) > sagitta) EXPECT_EQ(wall.inside(x), r < 0.5);
  }
}

// closest_within either finds what closest finds or, without a panel search, a lower bound of the
// distance above the reach.
TEST(Wall, ClosestWithinAReachIsExactOrABoundBeyondIt) {
  const Surface s = make_surface(ellipsoid(12, 0.5, 0.5, 0.05));
  const WallQueries wall(s);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-0.8, 0.8);
  int bounded = 0, found = 0;
  for (int t = 0; t < 2000; ++t) {
    const Vec3 x{u(rng), u(rng), 0.25 * u(rng)};
    const double reach = 0.02 + 0.1 * (t % 4);
    const WallPoint exact = wall.closest(x), w = wall.closest_within(x, reach);
    if (w.panel >= 0) {
      ++found;
      EXPECT_EQ(w.panel, exact.panel);
      EXPECT_EQ(w.distance, exact.distance);
    } else {
      ++bounded;
      EXPECT_GT(w.distance, reach);
      EXPECT_LE(w.distance, exact.distance);
    }
  }
  EXPECT_GT(bounded, 500);  // measured: 1004 bounds, 996 points found
  EXPECT_GT(found, 500);
}

// `count` particles uniform in [-xy, xy]^2 x [-z, z], strength (gx, 0, 0), core 0.01.
ParticleSet random_box(unsigned seed, int count, double xy, double z, double gx) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-xy, xy), v(-z, z);
  ParticleSet p;
  for (int t = 0; t < count; ++t) {
    const double x = u(rng), y = u(rng);
    p.push_back(x, y, v(rng), gx, 0, 0, 0.01);
  }
  return p;
}

// closest_near_box gives every particle within the reach of the surface's box the point
// closest_within finds, in index order, and no place to the others.
TEST(Wall, ClosestPointsNearTheBoxArePlacedInIndexOrder) {
  const Surface s = make_surface(ellipsoid(8, 0.5, 0.5, 0.05));
  const WallQueries wall(s);
  const ParticleSet p = random_box(7, 3000, 1, 0.5, 0);
  const double reach = 0.2;
  KnownWallPoints known;
  known.slot.assign(5000, 7);  // stale entries of a larger set are not read
  wall.closest_near_box(p, reach, Backend::Cpu, known);
  ASSERT_EQ(known.slot.size(), p.size());
  ASSERT_EQ(known.points.size(), known.index.size());
  std::size_t placed = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const Vec3 x{p.x[i], p.y[i], p.z[i]};
    // The box of this ellipsoid is [-0.5, 0.5]^2 x [-0.05, 0.05] up to its mesh's vertices.
    const bool near = std::abs(x.x) <= 0.5 + reach && std::abs(x.y) <= 0.5 + reach &&
                      std::abs(x.z) <= 0.05 + reach;
    const std::int32_t k = known.place(i);
    if (std::abs(std::abs(x.x) - 0.7) > 1e-3 && std::abs(std::abs(x.y) - 0.7) > 1e-3 &&
        std::abs(std::abs(x.z) - 0.25) > 1e-3)
      EXPECT_EQ(k >= 0, near) << i;
    if (k < 0) {
      EXPECT_EQ(known.find(i), nullptr);
      EXPECT_GT(wall.distance_bound(x, reach), reach);
      EXPECT_LE(wall.distance_bound(x, reach), wall.closest(x).distance);
      continue;
    }
    ASSERT_EQ(static_cast<std::size_t>(k), placed) << "places follow the particles' order";
    EXPECT_EQ(known.index[k], static_cast<std::int32_t>(i));
    const WallPoint w = wall.closest_within(x, reach * (1 + 1e-6));
    // distance_bound: the distance within the reach, a bound beyond it.
    const double exact = wall.closest(x).distance, bound = wall.distance_bound(x, reach);
    if (exact <= reach)
      EXPECT_EQ(bound, exact);
    else
      EXPECT_TRUE(bound > reach && bound <= exact) << bound << " " << exact;
    EXPECT_EQ(known.points[k].panel, w.panel);
    EXPECT_EQ(known.points[k].distance, w.distance);
    EXPECT_EQ(known.x[k], x.x);
    ++placed;
  }
  EXPECT_GT(placed, 500u);  // about a quarter of the box [-1, 1]^2 x [-0.5, 0.5]
  EXPECT_LT(placed, 1000u);
  EXPECT_EQ(known.place(p.size()), -1);
}

TEST(Wall, ReflectionAndPushOutPutParticlesInTheFluid) {
  const Surface s = make_surface(sphere(8, 0.5));
  const WallQueries wall(s);
  ParticleSet p;
  p.push_back(0.45, 0, 0, 1, 0, 0, 0.01);   // inside: reflected to about 0.55
  p.push_back(0, 0.505, 0, 0, 1, 0, 0.01);  // too close: pushed out to 0.02
  p.push_back(0, 0, 0.9, 0, 0, 1, 0.01);    // far: untouched
  // The same with the closest points of the first two given (as BodyFlow keeps them).
  ParticleSet q = p;
  KnownWallPoints known;
  known.slot = {0, 1};
  known.index = {0, 1};
  known.points = {wall.closest({q.x[0], q.y[0], q.z[0]}), wall.closest({q.x[1], q.y[1], q.z[1]})};
  const WallStats sq = wall.keep_in_fluid(q, 0.02, &known);
  const WallStats st = wall.keep_in_fluid(p, 0.02);
  EXPECT_EQ(sq.reflected, st.reflected);
  EXPECT_EQ(sq.pushed, st.pushed);
  EXPECT_EQ(q.x, p.x);
  EXPECT_EQ(q.y, p.y);
  EXPECT_EQ(q.z, p.z);
  EXPECT_EQ(st.reflected, 1u);
  EXPECT_EQ(st.pushed, 1u);
  EXPECT_NEAR(wall.closest({p.x[0], p.y[0], p.z[0]}).distance, 0.05, 0.01);
  EXPECT_NEAR(wall.closest({p.x[1], p.y[1], p.z[1]}).distance, 0.02, 1e-12);
  EXPECT_EQ(p.z[2], 0.9);
  EXPECT_EQ(p.gx[0], 1.0);  // strength kept
  EXPECT_TRUE(wall.blocked({0.6, 0, 0}, {-0.6, 0, 0}));
  EXPECT_FALSE(wall.blocked({0.6, 0, 0}, {0.6, 0.3, 0}));
  EXPECT_FALSE(wall.blocked({2, 2, 2}, {2.5, 2, 2}));
}

// The push-out with the closest points found in one batch (closest_near_box for its distance, as
// the step after the convection does) moves every particle as the search per particle does: the
// same on the host, the same to rounding on the GPU.
TEST(Wall, PushOutFromABatchOfClosestPointsEqualsThePerParticleSearch) {
  const Surface s = make_surface(ellipsoid(8, 0.5, 0.5, 0.05));
  const WallQueries wall(s);
  const ParticleSet p = random_box(12, 4000, 0.6, 0.08, 1);
  const double min_distance = 0.004;
  ParticleSet searched = p;
  const WallStats expected = wall.keep_in_fluid(searched, min_distance);
  EXPECT_GT(expected.reflected, 100u);  // the disc and the layer next to it are sampled
  EXPECT_GT(expected.pushed, 20u);
  for (Backend backend : {Backend::Cpu, Backend::Cuda}) {
    if (backend == Backend::Cuda && !cuda_available()) continue;
    ParticleSet batched = p;
    KnownWallPoints known;
    wall.closest_near_box(batched, min_distance, backend, known);
    const WallStats got = wall.keep_in_fluid(batched, min_distance, &known);
    EXPECT_EQ(got.reflected, expected.reflected);
    EXPECT_EQ(got.pushed, expected.pushed);
    const double tolerance = backend == Backend::Cpu ? 0 : 1e-12;
    for (std::size_t i = 0; i < p.size(); ++i) {
      EXPECT_NEAR(batched.x[i], searched.x[i], tolerance) << i;
      EXPECT_NEAR(batched.y[i], searched.y[i], tolerance) << i;
      EXPECT_NEAR(batched.z[i], searched.z[i], tolerance) << i;
    }
  }
}

// blocked() shares the start's closest point among the segments from one point: the same answers
// as the signs of closest()'s distances at q and at the midpoint, on a thin body where midpoints
// matter, for segments of growing and shrinking length from each point; inside() gives those signs.
TEST(Wall, BlockedMatchesTheInsideTestsOfEndAndMidpoint) {
  const Surface s = make_surface(ellipsoid(12, 0.5, 0.5, 0.05));
  const WallQueries wall(s);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  int blocked = 0;
  for (int start = 0; start < 60; ++start) {
    const Vec3 p{0.6 * u(rng), 0.6 * u(rng), 0.12 * u(rng)};
    const WallPoint known = wall.closest(p);  // given, it stands in for the search of p
    for (int k = 0; k < 40; ++k) {
      const double length = 0.01 + 0.2 * (k % 7) / 6;  // up and down again
      const Vec3 q = p + length * normalized(Vec3{u(rng), u(rng), u(rng)});
      const bool in_q = wall.closest(q).distance < 0;
      const bool in_mid = wall.closest(0.5 * (p + q)).distance < 0;
      EXPECT_EQ(wall.inside(q), in_q) << start << " " << k;
      EXPECT_EQ(wall.inside(0.5 * (p + q)), in_mid) << start << " " << k;
      const bool expected = in_q || in_mid;
      EXPECT_EQ(wall.blocked(p, q), expected) << start << " " << k;
      EXPECT_EQ(wall.blocked(p, q, &known), expected) << start << " " << k;
      blocked += expected;
    }
  }
  EXPECT_GT(blocked, 200);  // many segments end in or cross the disc
}

// The ends' signed distances decide most segments near a thin body as blocked() does (q inside:
// blocked; q in the fluid and the midpoint farther than max(dp, dq) less half the length: clear),
// from starts in the fluid and ends anywhere; the others stay undecided.
TEST(Wall, DistancesDecideTheSegmentTestWhereTheyCan) {
  const Surface s = make_surface(ellipsoid(12, 0.5, 0.5, 0.05));
  const WallQueries wall(s);
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1, 1);
  int decided = 0, undecided = 0, blocked = 0;
  for (int start = 0; start < 80; ++start) {
    const Vec3 p{0.6 * u(rng), 0.6 * u(rng), 0.12 * u(rng)};
    const double dp = wall.closest(p).distance;
    if (dp <= 0) continue;  // starts in the fluid, as particles are
    for (int k = 0; k < 40; ++k) {
      const double length = 0.005 + 0.1 * (k % 7) / 6;
      const Vec3 q = p + length * normalized(Vec3{u(rng), u(rng), u(rng)});
      const double dq = wall.closest(q).distance;
      const int d = path_by_distances(dp, dq, norm(q - p), wall.box_diagonal());
      if (d < 0) {
        ++undecided;
        continue;
      }
      ++decided;
      blocked += d == 1;
      EXPECT_EQ(d == 1, wall.blocked(p, q)) << start << " " << k;
    }
  }
  EXPECT_GT(decided, 4 * undecided);
  EXPECT_GT(blocked, 50);  // ends inside the disc among them
  // The bound by hand: 0.1 - 0.05 and 0.06 - 0.05 clear, 0.04 - 0.05 does not.
  EXPECT_EQ(path_by_distances(0.1, 0.05, 0.1, 1), 0);
  EXPECT_EQ(path_by_distances(0.04, 0.06, 0.1, 1), 0);
  EXPECT_EQ(path_by_distances(0.04, 0.04, 0.1, 1), -1);
  EXPECT_EQ(path_by_distances(0.1, -1e-9, 0.1, 1), 1);
}

// Convex meshes answer most segments from the plane of the start's closest panel; a dented one
// is not convex and takes the search every time: both give the inside tests' answers.
TEST(Wall, ConvexMeshesAreDetectedAndDentedOnesBlockAlike) {
  EXPECT_TRUE(WallQueries(make_surface(sphere(8, 0.5))).convex());
  EXPECT_TRUE(WallQueries(make_surface(ellipsoid(12, 0.5, 0.5, 0.05))).convex());
  TriangleMesh dented = sphere(8, 0.5);
  // The vertex nearest (0, 0, 0.5) pulled to 0.3 of the radius: a pit at the top.
  std::size_t top = 0;
  for (std::size_t k = 0; k < dented.vertices.size(); ++k)
    if (dented.vertices[k][2] > dented.vertices[top][2]) top = k;
  for (double& c : dented.vertices[top]) c *= 0.3;
  const Surface s = make_surface(dented);
  const WallQueries wall(s);
  EXPECT_FALSE(wall.convex());
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  int blocked = 0;
  for (int start = 0; start < 80; ++start) {
    const Vec3 p{0.15 * u(rng), 0.15 * u(rng), 0.35 + 0.2 * u(rng)};
    if (wall.closest(p).distance < 0) continue;
    for (int k = 0; k < 30; ++k) {
      const Vec3 q = p + (0.02 + 0.2 * (k % 5) / 4) * normalized(Vec3{u(rng), u(rng), u(rng)});
      const bool in_q = wall.closest(q).distance < 0;
      EXPECT_EQ(wall.inside(q), in_q) << start << " " << k;
      const bool expected = in_q || wall.closest(0.5 * (p + q)).distance < 0;
      EXPECT_EQ(wall.blocked(p, q), expected) << start << " " << k;
      blocked += expected;
    }
  }
  EXPECT_GT(blocked, 50);  // segments into the pit and across its rim
}

TEST(Shedding, ConservesTheSheetCirculationAndStaysInTheFluid) {
  const Surface s = make_surface(sphere(8, 0.5));
  BemOptions o;
  o.solver.backend = Backend::Cpu;
  BemSolver bem(s, o);
  bem.solve({1, 0.3, 0});
  const WallQueries wall(s);
  const double h = 0.12;
  const auto patches = shedding_patches(s, h);
  EXPECT_NEAR(double(patches.size()), s.total_area / (h * h), 0.35 * s.total_area / (h * h));
  ParticleSet p;
  SheddingOptions so;
  so.spacing = h;
  so.offset = 0.3;
  const std::size_t added = shed_sheet(wall, patches, bem.gamma(), so, p);
  EXPECT_EQ(added, p.size());
  Vec3 total;
  for (std::size_t i = 0; i < p.size(); ++i) {
    total += Vec3{p.gx[i], p.gy[i], p.gz[i]};
    EXPECT_NEAR(wall.closest({p.x[i], p.y[i], p.z[i]}).distance, 0.3 * h, 1e-12);
    EXPECT_EQ(p.sigma[i], h);
  }
  EXPECT_LT(norm(total - sheet_total_vorticity(s, bem.gamma())), 1e-12);
  so.spacing = 0;
  EXPECT_THROW(shed_sheet(wall, patches, bem.gamma(), so, p), std::invalid_argument);
}

TEST(WallVrm, NoNeighbourOrInsertedParticleAcrossTheBody) {
  const Surface s = make_surface(sphere(8, 0.5));
  const WallQueries wall(s);
  // Particles on a thin shell just outside the sphere.
  ParticleSet p;
  const double h = 0.05;
  for (int k = 0; k < 400; ++k) {
    const double z = 1 - 2 * (k + 0.5) / 400, phi = 2.39996 * k, r = std::sqrt(1 - z * z);
    const double rad = 0.5 + 0.3 * h;
    p.push_back(rad * r * std::cos(phi), rad * r * std::sin(phi), rad * z, 0.01 * z, 0.01, 0, h);
  }
  Vec3 before;
  for (std::size_t i = 0; i < p.size(); ++i) before += Vec3{p.gx[i], p.gy[i], p.gz[i]};
  VrmOptions o;
  o.spacing = h;
  o.blocked = [&](std::size_t, const std::array<double, 3>& a, const std::array<double, 3>& b) {
    return wall.blocked({a[0], a[1], a[2]}, {b[0], b[1], b[2]});
  };
  const VrmStats st = vrm_diffuse(p, 1e-3, 0.2, o);
  EXPECT_GT(st.inserted, 0u);
  Vec3 after;
  for (std::size_t i = 0; i < p.size(); ++i) {
    after += Vec3{p.gx[i], p.gy[i], p.gz[i]};
    EXPECT_FALSE(wall.inside({p.x[i], p.y[i], p.z[i]})) << "particle " << i;
  }
  EXPECT_LT(norm(after - before), 1e-12);
}

}  // namespace
}  // namespace vortex::bodies
