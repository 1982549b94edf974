#pragma once
// Viscous diffusion and particle control on a lattice of spacing h, shared by the ring run and
// the blob check.

#include <cstddef>

#include "vortex/particle_control.hpp"
#include "vortex/particles.hpp"
#include "vortex/pse.hpp"
#include "vortex/vrm.hpp"

namespace vortex::ring_app {

struct Diffusion {
  bool pse = false;  // particle strength exchange; else vorticity redistribution
  VrmOptions vrm;
  PseOptions pse_options;
  ParticleControlOptions control;
};

// The options of both schemes and of particle control for the lattice spacing h.
Diffusion lattice_diffusion(bool pse, double h, double remove_threshold);

// One diffusion step over dt; returns the particles VRM inserted (PSE inserts none).
std::size_t diffuse(ParticleSet& particles, double nu, double dt, const Diffusion& d);

}  // namespace vortex::ring_app
