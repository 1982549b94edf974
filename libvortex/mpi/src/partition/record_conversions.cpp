// Records (record.hpp) from a rank's arrays and back.

#include <cstddef>

#include "partition/record.hpp"
#include "tree/kdtree_cuts.hpp"

namespace vortex::mpi::detail {

void source_records(SourcesView s, vortex::detail::Units u, int rank, std::vector<Record>& r) {
  const double l = u.length_factor(), g = u.strength_factor();
  r.resize(s.size());
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i)
    r[i] = {{s.x[i] * l, s.y[i] * l, s.z[i] * l},
            vortex::detail::round_up_to_float(s.sigma[i] * l),
            0,
            {s.gx[i] * g, s.gy[i] * g, s.gz[i] * g},
            s.sigma[i] * l,
            origin_of(rank, i)};
}

void target_records(PointsView t, vortex::detail::Units u, int rank, std::vector<Record>& r) {
  const double l = u.length_factor();
  r.resize(t.size());
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(t.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i)
    r[i] = {{t.x[i] * l, t.y[i] * l, t.z[i] * l}, 0.0f, 0, {0, 0, 0}, 0, origin_of(rank, i)};
}

void particles_of(const std::vector<Record>& records, ParticleSet& p, double length,
                  double strength) {
  p.resize(records.size());
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(records.size());
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    const Record& r = records[i];
    p.x[i] = r.p[0] * length, p.y[i] = r.p[1] * length, p.z[i] = r.p[2] * length;
    p.gx[i] = r.g[0] * strength, p.gy[i] = r.g[1] * strength, p.gz[i] = r.g[2] * strength;
    p.sigma[i] = r.s * length;
  }
}

void points_of(const std::vector<Record>& records, Points& p) {
  p.resize(records.size());
  for (std::size_t i = 0; i < records.size(); ++i)
    p.x[i] = records[i].p[0], p.y[i] = records[i].p[1], p.z[i] = records[i].p[2];
}

void scaled_points(PointsView t, vortex::detail::Units u, Points& p) {
  const double l = u.length_factor();
  p.resize(t.size());
  for (std::size_t i = 0; i < t.size(); ++i)
    p.x[i] = t.x[i] * l, p.y[i] = t.y[i] * l, p.z[i] = t.z[i] * l;
}

}  // namespace vortex::mpi::detail
