// compute_diagnostics over ranks (vortex/mpi/distributed_toolkit.hpp): every quantity is a sum or
// a largest value over the particles, so each rank's sums are summed over the ranks.

#include "comm/collectives.hpp"
#include "vortex/mpi/distributed_toolkit.hpp"

namespace vortex::mpi {

Diagnostics compute_diagnostics(MPI_Comm communicator, const ParticleSet& particles,
                                const VelocityField* field, double time) {
  const detail::Comm comm(communicator);
  Diagnostics d;
  detail::together(comm, [&] { d = vortex::compute_diagnostics(particles, field, time); });
  if (comm.size() == 1) return d;
  double sums[] = {d.total_vorticity[0], d.total_vorticity[1],
                   d.total_vorticity[2], d.linear_impulse[0],
                   d.linear_impulse[1],  d.linear_impulse[2],
                   d.angular_impulse[0], d.angular_impulse[1],
                   d.angular_impulse[2], d.energy,
                   d.enstrophy,          d.helicity,
                   d.sum_strength};
  comm.allreduce(sums, 13, MPI_SUM);
  for (int k = 0; k < 3; ++k) {
    d.total_vorticity[k] = sums[k];
    d.linear_impulse[k] = sums[3 + k];
    d.angular_impulse[k] = sums[6 + k];
  }
  d.energy = sums[9];
  d.enstrophy = sums[10];
  d.helicity = sums[11];
  d.sum_strength = sums[12];
  d.count = static_cast<std::size_t>(comm.sum(static_cast<unsigned long long>(d.count)));
  d.max_strength = comm.max(d.max_strength);
  return d;
}

}  // namespace vortex::mpi
