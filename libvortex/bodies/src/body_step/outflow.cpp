// The wake's outflow (BodyFlowOptions::outflow): the particles beyond a plane far downstream leave
// the flow, and what they carried stays in the run's impulse and total vorticity.

#include <cstddef>

#include "body_step/body_flow_stages.hpp"

namespace vortex::bodies {

// In one pass, in the particles' order: those beyond the plane summed (in that order, so that a
// restarted run sums alike) and the others moved down over them, keeping their order.
void BodyFlow::leave_downstream(ParticleSet& particles, BodyStepStats& stats) {
  const auto& u = options_.free_stream;
  const Vec3 e = normalized(Vec3{u[0], u[1], u[2]});
  const std::size_t n = particles.size();
  std::size_t kept = 0;
  Vec3 impulse, vorticity;
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3 x{particles.x[i], particles.y[i], particles.z[i]};
    if (dot(x, e) > outflow_plane_) {
      const Vec3 g{particles.gx[i], particles.gy[i], particles.gz[i]};
      impulse += 0.5 * cross(x, g);
      vorticity += g;
      continue;
    }
    if (kept != i) particles.copy_particle(i, kept);
    ++kept;
  }
  if (kept == n) return;
  particles.resize(kept);
  stats.outflow += n - kept;
  outflow_impulse_ += impulse;
  outflow_vorticity_ += vorticity;
}

}  // namespace vortex::bodies
