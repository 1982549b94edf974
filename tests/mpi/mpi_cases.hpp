#pragma once
// What the MPI suites share: the communicator's facts, a global set dealt out to the ranks, and
// norms summed over the ranks.

#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/particles.hpp"

namespace vortex::testing {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
inline int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// The indices of a global set that a rank holds: owner(i) picks each index's rank.
inline std::vector<std::size_t> dealt(std::size_t n, const std::function<int(std::size_t)>& owner) {
  std::vector<std::size_t> mine;
  for (std::size_t i = 0; i < n; ++i)
    if (owner(i) == world_rank()) mine.push_back(i);
  return mine;
}
// Scattered over the ranks with no regard to position.
inline int scattered(std::size_t i) {
  return static_cast<int>((i * 2654435761u + 12345u) % static_cast<std::size_t>(world_size()));
}

inline ParticleSet subset(const ParticleSet& all, const std::vector<std::size_t>& idx) {
  ParticleSet p;
  for (const std::size_t i : idx)
    p.push_back(all.x[i], all.y[i], all.z[i], all.gx[i], all.gy[i], all.gz[i], all.sigma[i]);
  return p;
}
inline Points subset(PointsView all, const std::vector<std::size_t>& idx) {
  Points p;
  for (const std::size_t i : idx) p.push_back(all.x[i], all.y[i], all.z[i]);
  return p;
}
// The entries of a global field at a rank's indices.
inline VelocityField subset(const VelocityField& all, const std::vector<std::size_t>& idx) {
  VelocityField f;
  f.resize(idx.size(), all.has_gradient);
  for (std::size_t k = 0; k < idx.size(); ++k) {
    for (int c = 0; c < 3; ++c) f.u[c][k] = all.u[c][idx[k]];
    for (int c = 0; all.has_gradient && c < 9; ++c) f.du[c][k] = all.du[c][idx[k]];
  }
  return f;
}

// sqrt(sum |a - b|^2 / sum |b|^2) over all ranks' entries, velocity (gradient: false) or gradient.
inline double global_relative_l2(const VelocityField& a, const VelocityField& b, bool gradient) {
  double s[2] = {0, 0};
  const int nc = gradient ? 9 : 3;
  for (int c = 0; c < nc; ++c) {
    const std::vector<double>& x = gradient ? a.du[c] : a.u[c];
    const std::vector<double>& y = gradient ? b.du[c] : b.u[c];
    for (std::size_t i = 0; i < y.size(); ++i) {
      s[0] += (x[i] - y[i]) * (x[i] - y[i]);
      s[1] += y[i] * y[i];
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, s, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return std::sqrt(s[0] / s[1]);
}

}  // namespace vortex::testing
