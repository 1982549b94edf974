// vortex-ring: a vortex ring (or two coaxial rings) advanced by the vortex particle method, with
// stretching and, at finite Reynolds number, viscous diffusion; measures the ring's translation
// speed against the thin-ring theory (inviscid) or Saffman's formula (viscous), and writes a .pvd
// series for ParaView, a per-step diagnostics CSV, a PNG plot and, on request, a JSON summary.
// With --blob, the diffusion check instead; with --mpi, the run split over MPI ranks. The modules
// are in ring/.

#include "app_main.hpp"
#include "cli.hpp"
#include "ring_blob.hpp"
#include "ring_settings.hpp"
#include "ring_simulation.hpp"

namespace {

using namespace vortex::ring_app;

int ring_main(int argc, char** argv) {
  Settings s;
  if (!parse_settings(argc, argv, s)) return 0;
  if (s.blob && s.mpi)
    throw vortex::cli::UsageError("--mpi runs rings; --blob runs in one process");
  return s.blob ? blob_main(s) : simulate_ring(s);
}

}  // namespace

int main(int argc, char** argv) {
  return vortex::cli::run_app("vortex-ring", argc, argv, ring_main);
}
