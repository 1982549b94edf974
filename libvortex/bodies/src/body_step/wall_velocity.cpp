// The exact near-wall part of the boundary-element right-hand sides (docs/methods/bodies.md,
// section 2): the particles next to the wall, with their cores as the wall sees them, and their
// sums over the panels around them.

#include <algorithm>

#include "body_step/body_flow_stages.hpp"

namespace vortex::bodies {

SourcesView BodyFlow::as_seen_by_wall(const ParticleSet& particles) {
  SourcesView view(particles);
  const auto n = static_cast<std::ptrdiff_t>(particles.size());
  wall_sigma_.resize(particles.size());
#pragma omp parallel for schedule(static) if (n > 20000)
  for (std::ptrdiff_t i = 0; i < n; ++i)
    wall_sigma_[i] = std::min(particles.sigma[i], options_.wall_core);
  view.sigma = wall_sigma_.data();
  return view;
}

// The particles within their reach (the near radius, or 2.5 cores) of the wall, ascending, with
// that reach: their sums over every panel whose centroid lies within the reach plus a panel
// diameter (NearWallSums). Their closest points are found on the particle solver's backend, for
// the widest reach.
const std::vector<Vec3>* BodyFlow::near_wall_velocity(SourcesView view) {
  if (!options_.wall_exact || view.size() == 0) return nullptr;
  const double near = bem_.options().near_factor * surface_->max_diameter;
  const auto n = static_cast<std::ptrdiff_t>(view.size());
  double widest = near;
#pragma omp parallel for schedule(static) reduction(max : widest) if (n > 20000)
  for (std::ptrdiff_t p = 0; p < n; ++p) widest = std::max(widest, 2.5 * view.sigma[p]);
  PointsView positions;
  positions.x = view.x;
  positions.y = view.y;
  positions.z = view.z;
  positions.n = view.n;
  wall_.closest_near_box(positions, widest, solver_->options().backend, near_wall_points_);
  // The particles next to the wall (not inside it: a stage's particle there has its core alone).
  wall_reach_.assign(view.size(), 0.0);
  const KnownWallPoints& known = near_wall_points_;
  const auto places = static_cast<std::ptrdiff_t>(known.points.size());
#pragma omp parallel for schedule(static) if (places > 20000)
  for (std::ptrdiff_t k = 0; k < places; ++k) {
    const std::int32_t p = known.index[k];
    const double reach = std::max(near, 2.5 * view.sigma[p]);
    const double d = known.points[k].distance;  // exact within the widest reach, else a bound
    if (d > 0 && d < reach) wall_reach_[p] = reach;
  }
  wall_near_.clear();
  for (std::ptrdiff_t p = 0; p < n; ++p)
    if (wall_reach_[p] != 0)
      wall_near_.push_back({view.x[p], view.y[p], view.z[p]}, {view.gx[p], view.gy[p], view.gz[p]},
                           1 / view.sigma[p], wall_reach_[p]);
  near_wall_sums_.compute(solver_->options().core, wall_near_, near_wall_);
  return &near_wall_;
}

}  // namespace vortex::bodies
