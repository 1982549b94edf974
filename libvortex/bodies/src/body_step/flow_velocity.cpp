// The flow's velocity from the particles and the sheet: at the particles (the step's convection)
// and at any points (a field sampled on a grid). The sheet enters as its quadrature points,
// regularized with the sheet's core; the free stream is the caller's to add.

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "body_step/body_flow_stages.hpp"
#include "vortex/bodies/sheet.hpp"
#include "vortex/fixed_pieces.hpp"

namespace vortex::bodies {

using detail::Clock;
using detail::since;

const ParticleSet& BodyFlow::particles_and_sheet(const ParticleSet& particles) {
  // Sources: the particles and the sheet's quadrature points, regularized with sheet_core.
  ParticleSet& sources = sources_;
  const std::size_t need = particles.size() + sheet_points_.size();
  if (sources.x.capacity() < need) sources.reserve(need + need / 4);  // room for N to grow
  // Into the storage of the last call, on all threads (170 MB at 3M particles): the particles,
  // then the sheet's points.
  const std::size_t n = particles.size(), ns = sheet_points_.size();
  sources.resize(need);
  const auto from = particles.arrays();
  const auto to = sources.arrays();
#pragma omp parallel for collapse(2) schedule(static) if (n > 100000)
  for (int a = 0; a < 7; ++a)
    for (int k = 0; k < kFixedPieces; ++k)
      std::copy(from[a]->begin() + piece_start(n, k), from[a]->begin() + piece_start(n, k + 1),
                to[a]->begin() + piece_start(n, k));
  const std::vector<Vec3> g = sheet_vectors(*surface_, bem_.gamma());
  const std::size_t nq = sheet_rule_.size();
  const auto points = static_cast<std::ptrdiff_t>(ns);
#pragma omp parallel for schedule(static) if (points > 100000)
  for (std::ptrdiff_t k = 0; k < points; ++k) {
    const std::size_t j = static_cast<std::size_t>(k) / nq, at = n + static_cast<std::size_t>(k);
    const double w = surface_->panels[j].area * sheet_rule_.weight[k % nq];
    sources.x[at] = sheet_points_.x[k];
    sources.y[at] = sheet_points_.y[k];
    sources.z[at] = sheet_points_.z[k];
    sources.gx[at] = w * g[j].x;
    sources.gy[at] = w * g[j].y;
    sources.gz[at] = w * g[j].z;
    sources.sigma[at] = options_.sheet_core;
  }
  return sources;
}

void BodyFlow::velocity_at(const ParticleSet& particles, PointsView points, bool gradient,
                           VelocityField& out) {
  solver_->evaluate(particles_and_sheet(particles), points, gradient, out);
}

VelocityField BodyFlow::particle_velocity(const ParticleSet& particles, bool gradient) {
  VelocityField f;
  particle_velocity(particles, gradient, f);
  return f;
}

void BodyFlow::particle_velocity(const ParticleSet& particles, bool gradient, VelocityField& out) {
  const auto start = Clock::now();
  solver_->evaluate(particles_and_sheet(particles), PointsView(particles), gradient, out);
  if (!current_) return;
  current_->seconds_velocity += since(start);
  current_->device_bytes = out.stats.device_bytes;
  if (!out.has_gradient) return;
  // The largest velocity gradient at a particle (Frobenius norm): its product with the time step
  // tells where the stretching outruns the integrator.
  const std::size_t n = particles.size();
  double largest = 0;
  const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for if (count > 20000) reduction(max : largest)
  for (std::ptrdiff_t i = 0; i < count; ++i) {
    double g = 0;
    for (int c = 0; c < 9; ++c) g += out.du[c][i] * out.du[c][i];
    largest = std::max(largest, g);
  }
  current_->max_velocity_gradient = std::max(current_->max_velocity_gradient, std::sqrt(largest));
}

}  // namespace vortex::bodies
