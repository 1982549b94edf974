#pragma once
// vortex-body's benchmarks of one sub-step (--bench-diffusion, --bench-velocity).

#include "body_settings.hpp"
#include "vortex/bodies/body_flow.hpp"
#include "vortex/solver.hpp"

namespace vortex::body_app {

// --bench-diffusion: s.bench_diffusion diffusion sub-steps of dt/2, each from those particles;
// prints their times and the invariants they keep.
void bench_diffusion(const Settings& s, bodies::BodyFlow& flow, const ParticleSet& particles);
// --bench-velocity: s.bench_velocity velocity evaluations of the particles after a warm-up.
void bench_velocity(const Settings& s, Solver& solver, const ParticleSet& particles);

}  // namespace vortex::body_app
