#include "ring_setup.hpp"

#include <string>

#include "memory_check.hpp"

namespace vortex::ring_app {
namespace {

// Every step keeps several copies of the particles with their velocities and gradients.
void check_memory(const Settings& s, const RingOptions& ring) {
  constexpr long double kBytesPerParticle = 1000;
  const long double ring_particles = static_cast<long double>(ring_particle_count(ring));
  cli::require_memory("--layers " + std::to_string(s.ring.layers) + " (" +
                          std::to_string(static_cast<unsigned long long>(ring_particles)) +
                          " particles per ring)",
                      kBytesPerParticle * ring_particles * (s.second_ring ? 2 : 1));
}

}  // namespace

double RingSetup::theory_speed(double t) const {
  return viscous ? saffman_ring_speed(first.circulation, first.radius, theory.delta0, nu, t)
                 : theory.speed;
}

RingSetup make_setup(const Settings& s, const RunPlan& plan) {
  RingSetup setup;
  setup.first = s.ring;
  check_memory(s, setup.first);
  setup.particles = vortex_ring(setup.first);
  setup.second = setup.first;
  if (s.second_ring) {
    if (s.second_radius > 0) setup.second.radius = s.second_radius;
    setup.second.center = {0, 0, -s.separation};
    const ParticleSet behind = vortex_ring(setup.second);
    for (std::size_t i = 0; i < behind.size(); ++i)
      setup.particles.push_back(behind.x[i], behind.y[i], behind.z[i], behind.gx[i], behind.gy[i],
                                behind.gz[i], behind.sigma[i]);
  }
  setup.h = s.ring.core_radius / (s.ring.layers + 0.5);
  setup.sigma = s.ring.overlap * setup.h;
  setup.spacing = s.spacing > 0 ? s.spacing : setup.h;
  setup.theory = particle_ring_theory(setup.first, plan.solver.core);
  setup.nu = plan.nu;
  setup.viscous = plan.viscous;
  setup.have_theory = !s.second_ring;
  return setup;
}

}  // namespace vortex::ring_app
