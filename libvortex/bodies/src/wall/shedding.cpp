#include "vortex/bodies/shedding.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "vortex/bodies/sheet.hpp"
#include "vortex/kdtree.hpp"

namespace vortex::bodies {

namespace {

// Of the half-normal density 2 / (s sqrt(2 pi)) exp(-y^2 / 2 s^2) on [a, b] (b may be infinite):
// the mass and the first moment.
double layer_mass(double a, double b, double s) {
  return std::erfc(a / (s * M_SQRT2)) - std::erfc(b / (s * M_SQRT2));
}
double layer_moment(double a, double b, double s) {
  const double c = s * std::sqrt(2 / M_PI);
  return c * (std::exp(-a * a / (2 * s * s)) - std::exp(-b * b / (2 * s * s)));
}

}  // namespace

std::vector<ShedLayer> heat_kernel_layers(double s, double layer, double tail) {
  if (!(s > 0) || !(layer > 0) || !(tail > 0 && tail < 1) || !std::isfinite(s) ||
      !std::isfinite(layer))
    throw std::invalid_argument("shedding: the diffusion length, layer and tail must be positive");
  std::vector<ShedLayer> layers;
  for (double a = 0;; a += layer) {
    const double b = a + layer;
    const bool last = std::erfc(b / (s * M_SQRT2)) < tail;
    const double top = last ? INFINITY : b;
    const double mass = layer_mass(a, top, s);
    if (mass > 0) layers.push_back({layer_moment(a, top, s) / mass, mass});
    if (last) break;
  }
  // The shares sum to 1 to rounding: the circulation shed is the sheet's.
  double others = 0;
  for (std::size_t k = 0; k + 1 < layers.size(); ++k) others += layers[k].fraction;
  layers.back().fraction = 1 - others;
  return layers;
}

double wall_image_drift(double distance, double s2) {
  if (!(s2 > 0)) return 0;
  const double y = std::max(distance, 0.0), s = std::sqrt(s2);
  return s * std::sqrt(2 / M_PI) * std::exp(-y * y / (2 * s2)) - y * std::erfc(y / (s * M_SQRT2));
}

VrmMoments wall_image_moments(double distance, const Vec3& n, double s2) {
  const double y = std::max(distance, 0.0), delta = wall_image_drift(y, s2);
  const double c = -2 * y * delta;
  VrmMoments m;
  m.first = {delta * n.x, delta * n.y, delta * n.z};
  m.second = {s2 + c * n.x * n.x, s2 + c * n.y * n.y, s2 + c * n.z * n.z,
              c * n.x * n.y,      c * n.x * n.z,      c * n.y * n.z};
  return m;
}

std::vector<std::vector<int>> shedding_patches(const Surface& s, double spacing) {
  if (!(spacing > 0)) throw std::invalid_argument("shedding: spacing h must be positive");
  const Points centroids = panel_centroids(s);
  const double mean_area = s.total_area / static_cast<double>(s.size());
  const int bucket = std::max(1, static_cast<int>(std::lround(spacing * spacing / mean_area)));
  const KdTree tree = build_kdtree(centroids, nullptr, bucket, 2);
  std::vector<std::vector<int>> patches;
  for (int leaf : tree.leaves) {
    std::vector<int> panels;
    for (int k = tree.nodes[leaf].begin; k < tree.nodes[leaf].end; ++k)
      panels.push_back(static_cast<int>(tree.permutation[k]));
    patches.push_back(std::move(panels));
  }
  return patches;
}

std::size_t shed_sheet(const WallQueries& wall, const std::vector<std::vector<int>>& patches,
                       const std::vector<double>& gamma, const SheddingOptions& o,
                       ParticleSet& particles) {
  if (!(o.spacing > 0)) throw std::invalid_argument("shedding: spacing h must be positive");
  if (!(o.diffusion_length >= 0))
    throw std::invalid_argument("shedding: the diffusion length must be >= 0");
  const Surface& s = wall.surface();
  const std::vector<Vec3> g = sheet_vectors(s, gamma);
  const double sigma = o.core_radius > 0 ? o.core_radius : o.spacing;
  const std::vector<ShedLayer> layers =
      o.diffusion_length > 0 ? heat_kernel_layers(o.diffusion_length, o.layer * o.spacing, o.tail)
                             : std::vector<ShedLayer>{{o.offset * o.spacing, 1.0}};
  // Each patch's circulation and the wall point under its centre on all threads (a closest-point
  // search each: some ten thousand a call on the paper's discoid); the particles then appended in
  // the patches' order.
  struct Shed {
    Vec3 circulation;
    WallPoint wall;
    bool sheds = false;
  };
  std::vector<Shed> shed(patches.size());
  const auto count = static_cast<std::ptrdiff_t>(patches.size());
#pragma omp parallel for schedule(dynamic, 64) if (count > 256)
  for (std::ptrdiff_t k = 0; k < count; ++k) {
    Vec3 circulation, where;
    double weight = 0;
    for (int j : patches[k]) {
      const Panel& p = s.panels[j];
      const Vec3 c = p.area * g[j];
      circulation += c;
      weight += norm(c);
      where += norm(c) * p.centroid;
    }
    if (!(weight > 0) || norm(circulation) <= o.min_strength) continue;
    shed[k] = {circulation, wall.closest((1 / weight) * where), true};
  }
  std::size_t added = 0;
  for (const Shed& patch : shed) {
    if (!patch.sheds) continue;
    for (const ShedLayer& l : layers) {
      const Vec3 x = patch.wall.point + l.height * patch.wall.normal;
      const Vec3 c = l.fraction * patch.circulation;
      particles.push_back(x.x, x.y, x.z, c.x, c.y, c.z, sigma);
      ++added;
    }
  }
  return added;
}

}  // namespace vortex::bodies
