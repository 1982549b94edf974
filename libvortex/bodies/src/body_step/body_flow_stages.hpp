#pragma once
// The state of a BodyFlow's stages (the sheet's solve, the wall's queries and near-wall sums, the
// particles next to the wall), kept out of the public body_flow.hpp, and what the stages' sources
// share.

#include <chrono>

#include "vortex/bodies/bem_solver.hpp"
#include "vortex/bodies/body_flow.hpp"
#include "vortex/bodies/near_wall.hpp"
#include "vortex/bodies/surface_pressure.hpp"
#include "vortex/bodies/wall.hpp"

namespace vortex::bodies {

namespace detail {

using Clock = std::chrono::steady_clock;

inline double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Sums over the particles in fixed pieces (vortex/fixed_pieces.hpp), the same on any number of
// threads: their strengths (from index `from` on), their linear impulse 1/2 sum x x Gamma.
Vec3 particle_vorticity(const ParticleSet& p, std::size_t from = 0);
Vec3 particle_impulse(const ParticleSet& p);

}  // namespace detail

struct BodyFlow::Stages {
  Stages(const Surface& surface, const BemOptions& options, Backend backend)
      : bem(surface, options),
        wall(surface),
        near_wall_sums(surface, bem.op().rules().target, backend),
        pressure(surface),
        centroids(panel_centroids(surface)) {}
  BemSolver bem;
  WallQueries wall;
  NearWallSums near_wall_sums;
  KnownWallPoints wall_points, near_wall_points;
  SurfacePressure pressure;
  std::vector<Vec3> shed;  // per panel: the sheets shed in the step so far (wall_forces.cpp)
  Points centroids;        // the panels', where the skin friction reads the vorticity
  NearWallParticles wall_near;
};

}  // namespace vortex::bodies
