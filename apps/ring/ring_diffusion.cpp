#include "ring_diffusion.hpp"

namespace vortex::ring_app {

Diffusion lattice_diffusion(bool pse, double h, double remove_threshold) {
  Diffusion d;
  d.pse = pse;
  d.vrm.spacing = h;
  d.pse_options.epsilon = h;
  d.pse_options.volume = h * h * h;
  d.control.spacing = h;
  d.control.remove_threshold = remove_threshold;
  return d;
}

std::size_t diffuse(ParticleSet& particles, double nu, double dt, const Diffusion& d) {
  if (d.pse) {
    pse_diffuse(particles, nu, dt, d.pse_options);
    return 0;
  }
  return vrm_diffuse(particles, nu, dt, d.vrm).inserted;
}

}  // namespace vortex::ring_app
