// The body step's stages on the particles next to the wall: the shedding of the sheet into them,
// their reflection and push-out into the fluid, their closest wall points and image moments for
// the VRM (docs/methods/bodies.md).

#include <algorithm>
#include <cmath>

#include "body_step/body_flow_stages.hpp"
#include "vortex/bodies/shedding.hpp"

namespace vortex::bodies {

namespace {

// The diffusion length beyond which the wall's image moments are left out: 8 of them (the drift
// is then below 1e-15 of a length).
double image_reach(double nu, double dt) {
  return 8 * std::sqrt(2 * nu * dt);
}

}  // namespace

using detail::Clock;
using detail::particle_impulse;
using detail::particle_vorticity;
using detail::since;

// Sheds the sheet into particles, as `options` place them (the patches' shares of the step's shed
// sheet kept for the pressure, wall_forces.cpp).
void BodyFlow::shed(ParticleSet& particles, const SheddingOptions& options, BodyStepStats& stats) {
  const auto start = Clock::now();
  const std::size_t first = particles.size();
  stats.shed += shed_sheet(wall_, patches_, bem_.gamma(), options, particles);
  stats.vorticity_shed += particle_vorticity(particles, first);
  add_shed_sheet();
  stats.seconds_shed += since(start);
}

void BodyFlow::keep_in_fluid(ParticleSet& particles, BodyStepStats& stats, bool moved) {
  const auto start = Clock::now();
  const Vec3 before = particle_impulse(particles);
  const double min_distance = options_.min_wall_distance * options_.spacing;
  // Particles that moved since the wall points were found get theirs anew, in one batch on the
  // particle solver's backend (near_wall_points_ is free between solves).
  if (moved)
    wall_.closest_near_box(particles, min_distance, solver_->options().backend, near_wall_points_);
  const WallStats w =
      wall_.keep_in_fluid(particles, min_distance, moved ? &near_wall_points_ : &wall_points_);
  stats.reflected += w.reflected;
  stats.pushed += w.pushed;
  stats.correction_impulse += particle_impulse(particles) - before;
  stats.seconds_keep_in_fluid += since(start);
}

double BodyFlow::wall_reach(double dt) const {
  return std::max(image_reach(options_.nu, dt), 2 * vrm_radius(options_.vrm, options_.nu, dt));
}

// The closest wall point of every particle within reach of the wall's bounding box (of the image
// moments, of the VRM's wall tests), once, on the VRM's backend: the image moments, the VRM and
// keep_in_fluid all ask for it, and the VRM moves no particle.
void BodyFlow::find_wall_points(const ParticleSet& particles, double dt) {
  wall_.closest_near_box(particles, wall_reach(dt), options_.vrm.backend, wall_points_);
}

// The image moments of every particle within image_reach of the wall, for the VRM (after
// find_wall_points), in the places of the wall points.
void BodyFlow::wall_images(double dt) {
  const double s2 = 2 * options_.nu * dt, reach = image_reach(options_.nu, dt);
  const auto count = static_cast<std::ptrdiff_t>(wall_points_.points.size());
  spread_.resize(count);  // read only where has_spread_: not filled anew
  has_spread_.resize(count);
#pragma omp parallel for schedule(dynamic, 256)
  for (std::ptrdiff_t k = 0; k < count; ++k) {
    const WallPoint& w = wall_points_.points[k];  // found for a reach at least image_reach
    has_spread_[k] = w.panel >= 0 && w.distance < reach;
    if (!has_spread_[k]) continue;
    const Vec3 x{wall_points_.x[k], wall_points_.y[k], wall_points_.z[k]};
    const Vec3 normal = w.distance > 0 ? normalized(x - w.point) : w.normal;
    spread_[k] = wall_image_moments(w.distance, normal, s2);
  }
}

}  // namespace vortex::bodies
