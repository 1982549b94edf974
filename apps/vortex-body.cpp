// vortex-body: flow past a body at rest (a sphere, an ellipsoid or a mesh file) started
// impulsively: the boundary-element sheet, vorticity shed from the wall, VRM diffusion, convection
// with stretching, and the forces from the impulse. Writes .pvd series of the particles and the
// surface, a per-step diagnostics CSV, C_D and C_L plots, checkpoints, and a JSON summary; or
// times one sub-step from a checkpoint (--bench-diffusion, --bench-velocity). The modules are in
// body/.

#include "app_main.hpp"
#include "body_bench.hpp"
#include "body_run.hpp"
#include "body_settings.hpp"

namespace {

using namespace vortex;
using namespace vortex::body_app;

int body_main(int argc, char** argv) {
  Settings s;
  SolverOptions solver;
  if (!parse_settings(argc, argv, s, solver)) return 0;
  return benchmark_mode(s) ? run_benchmark(s, solver) : run_simulation(s, solver);
}

}  // namespace

int main(int argc, char** argv) {
  return vortex::cli::run_app("vortex-body", argc, argv, body_main);
}
