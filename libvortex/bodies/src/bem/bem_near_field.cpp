#include "vortex/bodies/bem_near_field.hpp"

#include <algorithm>

#include "vortex/math/panel_influence.hpp"
#include "vortex/neighbor_search.hpp"

namespace vortex::bodies {

namespace {

constexpr double kInv4Pi = 0.079577471545947667884;

// Adds w * row_r . (t_jb x K) / (4 pi) to out for the three rows of panel i.
void accumulate(const Panel& pi, const Panel& pj, const Vec3& k, double w, double out[3][2]) {
  const Vec3 rows[3] = {pi.t1, pi.t2, pi.normal};
  const Vec3 cols[2] = {pj.t1, pj.t2};
  for (int r = 0; r < 3; ++r)
    for (int b = 0; b < 2; ++b) out[r][b] += w * kInv4Pi * dot(rows[r], cross(cols[b], k));
}

void clear(double out[3][2]) {
  for (int r = 0; r < 3; ++r) out[r][0] = out[r][1] = 0;
}

}  // namespace

void point_block(const Surface& s, const BemRules& rules, int i, int j, double out[3][2]) {
  clear(out);
  const Panel& pi = s.panels[i];
  const Panel& pj = s.panels[j];
  const TriangleRule& src = rules.source;
  for (std::size_t t = 0; t < rules.target.size(); ++t) {
    const auto& bt = rules.target.bary[t];
    const Vec3 x = panel_point(pi, bt[0], bt[1], bt[2]);
    Vec3 k;
    for (std::size_t q = 0; q < src.size(); ++q) {
      const Vec3 d = x - panel_point(pj, src.bary[q][0], src.bary[q][1], src.bary[q][2]);
      const double r2 = dot(d, d);
      if (r2 == 0) continue;
      k += (pj.area * src.weight[q] / (r2 * std::sqrt(r2))) * d;
    }
    accumulate(pi, pj, k, rules.target.weight[t], out);
  }
}

void exact_block(const Surface& s, const BemRules& rules, int i, int j, double out[3][2]) {
  clear(out);
  const Panel& pi = s.panels[i];
  const Panel& pj = s.panels[j];
  // Touching panels (and the panel itself) see the log singularity of the edges: subdivide.
  const bool touching = norm(pi.centroid - pj.centroid) < 1.5 * std::max(pi.diameter, pj.diameter);
  const TriangleRule sub = touching ? subdivided(rules.near) : TriangleRule{};
  const TriangleRule& rule = touching ? sub : rules.near;
  for (std::size_t q = 0; q < rule.size(); ++q) {
    const auto& b = rule.bary[q];
    accumulate(pi, pj, panel_field_exact(pj, panel_point(pi, b[0], b[1], b[2])), rule.weight[q],
               out);
  }
  if (i == j) {  // inner-side limit: u- = PV + 1/2 n x gamma
    out[0][0] = 0;
    out[0][1] = -0.5;
    out[1][0] = 0.5;
    out[1][1] = 0;
  }
}

NearField build_near_field(const Surface& s, const BemRules& rules, double radius) {
  const Points centroids = panel_centroids(s);
  const NeighborLists lists = NeighborSearch(centroids).all_within(centroids, radius);
  NearField nf;
  nf.radius = radius;
  nf.offsets = lists.offsets;
  const std::size_t blocks = lists.indices.size();
  nf.j.assign(lists.indices.begin(), lists.indices.end());
  nf.exact.resize(6 * blocks);
  nf.tangential.resize(4 * blocks);
  nf.normal.resize(2 * blocks);
  const auto n = static_cast<std::ptrdiff_t>(s.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    for (std::size_t k = nf.offsets[i]; k < nf.offsets[i + 1]; ++k) {
      double point[3][2], exact[3][2];
      point_block(s, rules, static_cast<int>(i), nf.j[k], point);
      exact_block(s, rules, static_cast<int>(i), nf.j[k], exact);
      for (int r = 0; r < 3; ++r)
        for (int b = 0; b < 2; ++b) {
          nf.exact[6 * k + 2 * r + b] = exact[r][b];
          const double correction = exact[r][b] - point[r][b];
          if (r < 2)
            nf.tangential[4 * k + 2 * r + b] = correction;
          else
            nf.normal[2 * k + b] = correction;
        }
    }
  }
  return nf;
}

}  // namespace vortex::bodies
