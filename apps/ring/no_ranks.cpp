// A build without MPI: --mpi is refused.

#include "cli.hpp"
#include "ring_steps.hpp"

namespace vortex::ring_app {

int run_on_ranks(Settings&, const RunPlan&) {
  throw cli::UsageError("--mpi: this build has no MPI (configure with -DVORTEX_WITH_MPI=ON)");
}

}  // namespace vortex::ring_app
