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

// The particles within their reach (wall_exact_reach panel diameters, or 2.5 cores) of the wall,
// ascending, with that reach: their sums over every panel whose centroid lies within the reach
// plus a panel diameter (NearWallSums). Their closest points are found on the particle solver's
// backend, for the widest reach (the wall sees no core above the wall core).
const std::vector<Vec3>* BodyFlow::near_wall_velocity(SourcesView view) {
  if (!options_.wall_exact || view.size() == 0) return nullptr;
  const double near = options_.wall_exact_reach * surface_->max_diameter;
  const double widest = std::max(near, 2.5 * options_.wall_core);
  wall_.closest_near_box(view.positions(), widest, solver_->options().backend, near_wall_points_);
  // The particles next to the wall (not inside it: a stage's particle there has its core alone),
  // in the places' order, which is the particles'.
  const KnownWallPoints& known = near_wall_points_;
  wall_near_.clear();
  for (std::size_t k = 0; k < known.points.size(); ++k) {
    const std::int32_t p = known.index[k];
    const double reach = std::max(near, 2.5 * view.sigma[p]);
    const double d = known.points[k].distance;  // exact within the widest reach, else a bound
    if (d > 0 && d < reach)
      wall_near_.push_back({view.x[p], view.y[p], view.z[p]}, {view.gx[p], view.gy[p], view.gz[p]},
                           1 / view.sigma[p], reach);
  }
  near_wall_sums_.compute(solver_->options().core, wall_near_, near_wall_);
  return &near_wall_;
}

}  // namespace vortex::bodies
