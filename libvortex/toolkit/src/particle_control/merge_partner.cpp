#include "particle_control/merge_partner.hpp"

#include "particle_control/absorb.hpp"

namespace vortex::detail {

int merge_partner(const ParticleSet& p, std::size_t i, const std::vector<char>& candidate,
                  const GridSearch& search, const ParticleControlOptions& o, const WallNearby* wall,
                  std::vector<int>& found) {
  search.query(p.x[i], p.y[i], p.z[i], o.merge_distance * o.spacing, found);
  int best = -1;
  double nearest = 0;
  for (int j : found) {
    if (candidate[j]) continue;  // i itself among them
    const double dx = p.x[j] - p.x[i], dy = p.y[j] - p.y[i], dz = p.z[j] - p.z[i];
    const double d2 = dx * dx + dy * dy + dz * dz;
    if (best >= 0 && (d2 > nearest || (d2 == nearest && j > best))) continue;
    if (blocked(p, o, i, static_cast<std::size_t>(j), wall)) continue;
    best = j;
    nearest = d2;
  }
  return best;
}

void move_partners(ParticleSet& p, const std::vector<double>& strength_before,
                   const std::vector<MergeMoments>& moments, std::size_t own,
                   const ParticleControlOptions& o) {
  const auto n = static_cast<std::ptrdiff_t>(own);
#pragma omp parallel for schedule(static) if (n > 20000)
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    const MergeMoments& m = moments[j];
    if (!(m[0] > 0)) continue;
    const double s = strength_before[j], total = s + m[0];
    const std::array<double, 3> centroid{p.x[j] + m[1] / total, p.y[j] + m[2] / total,
                                         p.z[j] + m[3] / total};
    if (o.blocked && o.blocked(static_cast<std::size_t>(j), {p.x[j], p.y[j], p.z[j]}, centroid))
      continue;
    p.x[j] = centroid[0];
    p.y[j] = centroid[1];
    p.z[j] = centroid[2];
  }
}

}  // namespace vortex::detail
