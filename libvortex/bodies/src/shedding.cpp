#include "vortex/bodies/shedding.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "vortex/bodies/sheet.hpp"
#include "vortex/kdtree.hpp"

namespace vortex::bodies {

std::vector<std::vector<int>> shedding_patches(const Surface& s, double spacing) {
  if (!(spacing > 0)) throw std::invalid_argument("shedding: spacing h must be positive");
  Points centroids;
  for (const Panel& p : s.panels) centroids.push_back(p.centroid.x, p.centroid.y, p.centroid.z);
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
  const Surface& s = wall.surface();
  const std::vector<Vec3> g = sheet_vectors(s, gamma);
  const double sigma = o.core_radius > 0 ? o.core_radius : o.spacing;
  std::size_t added = 0;
  for (const auto& patch : patches) {
    Vec3 circulation, where;
    double weight = 0, area = 0;
    for (int j : patch) {
      const Panel& p = s.panels[j];
      const Vec3 c = p.area * g[j];
      circulation += c;
      weight += norm(c);
      where += norm(c) * p.centroid;
      area += p.area;
    }
    if (!(weight > 0) || norm(circulation) <= o.min_strength) continue;
    const WallPoint w = wall.closest((1 / weight) * where);
    const Vec3 x = w.point + (o.offset * o.spacing) * w.normal;
    particles.push_back(x.x, x.y, x.z, circulation.x, circulation.y, circulation.z, sigma);
    ++added;
  }
  return added;
}

}  // namespace vortex::bodies
