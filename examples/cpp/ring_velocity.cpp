// A vortex ring's velocity and its gradient at the particles, written for ParaView: the library
// as an installed package (find_package(vortex)) sees it.
//   ring_velocity OUT.vtp
#include <cstdio>
#include <exception>

#include "vortex/generators.hpp"
#include "vortex/solver.hpp"
#include "vortex/vtp.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: ring_velocity OUT.vtp\n");
    return 2;
  }
  try {
    vortex::RingOptions ring;
    ring.core_radius = 0.2;
    const vortex::ParticleSet particles = vortex::vortex_ring(ring);
    vortex::Solver solver(vortex::SolverOptions{});
    const vortex::VelocityField field = solver.evaluate(particles, /*gradient=*/true);
    vortex::write_vtp(argv[1], particles, &field);
    std::printf("%zu particles, u_z at the first: %.6f\n", particles.size(), field.u[2][0]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ring_velocity: %s\n", e.what());
    return 1;
  }
  return 0;
}
