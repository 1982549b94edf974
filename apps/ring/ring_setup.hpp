#pragma once
// The particles of a ring run (one ring, or two coaxial ones), their lattice and the theory of
// the first ring's speed.

#include "ring_settings.hpp"
#include "vortex/generators.hpp"
#include "vortex/particles.hpp"
#include "vortex/ring_theory.hpp"

namespace vortex::ring_app {

struct RingSetup {
  RingOptions first, second;  // second: as first unless --second-ring
  ParticleSet particles;
  double h = 0;        // radial particle spacing in the core
  double sigma = 0;    // particle core radius
  double spacing = 0;  // diffusion lattice spacing
  RingTheory theory;
  double nu = 0;
  bool viscous = false;
  bool have_theory = true;  // one ring only

  // The first ring's theoretical speed at time t: thin-ring theory, or Saffman's when viscous.
  double theory_speed(double t) const;
};

// Builds the rings, refusing at once runs that cannot fit in memory.
RingSetup make_setup(const Settings& s, const RunPlan& plan);

}  // namespace vortex::ring_app
