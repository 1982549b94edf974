// pse_diffuse over ranks (vortex/mpi/distributed_toolkit.hpp): a halo of the other ranks'
// particles within the cutoff, with their strengths, so that every particle exchanges with the
// neighbours it has in the whole set; the copies' strengths are refreshed from their ranks after
// each stage of Heun's method, and leave with the step.

#include "comm/collectives.hpp"
#include "halo/halo.hpp"
#include "solver/options_agreement.hpp"
#include "vortex/mpi/distributed_toolkit.hpp"

namespace vortex::mpi {

int pse_diffuse(MPI_Comm communicator, ParticleSet& p, double nu, double dt,
                const PseOptions& options) {
  const detail::Comm comm(communicator);
  int substeps = 0;
  detail::together(comm, [&] {
    substeps = pse_substeps(nu, dt, options);  // checks the options, nu and dt
    detail::check_finite(p, "PSE");
  });
  detail::agree_on_fields(comm, {{"epsilon", options.epsilon},
                                 {"volume", options.volume},
                                 {"cutoff", options.cutoff},
                                 {"max_substep", options.max_substep},
                                 {"nu", nu},
                                 {"dt", dt}});
  if (comm.size() == 1) return vortex::pse_diffuse(p, nu, dt, options);
  if (substeps == 0) return 0;
  detail::lockstep(comm, "the PSE step", [&] {
    const std::size_t n = p.size();
    detail::Halo halo;
    halo.gather(comm, p, n, options.cutoff * options.epsilon, true);
    vortex::detail::pse_diffuse_part(
        p, n, nu, dt, options, [&](ParticleSet& stage) { halo.refresh_strengths(comm, stage, n); });
    p.resize(n);
  });
  return substeps;
}

}  // namespace vortex::mpi
