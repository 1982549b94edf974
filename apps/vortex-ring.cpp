// vortex-ring: a vortex ring (or two coaxial rings) advanced by the vortex particle method, with
// stretching and, at finite Reynolds number, viscous diffusion; measures the ring's translation
// speed against the thin-ring theory (inviscid) or Saffman's formula (viscous), and writes a .pvd
// series for ParaView, a per-step diagnostics CSV, a PNG plot and, on request, a JSON summary.
// The modules are in ring/.

#include "app_main.hpp"
#include "ring_blob.hpp"
#include "ring_output.hpp"
#include "ring_record.hpp"
#include "ring_settings.hpp"
#include "ring_setup.hpp"
#include "ring_simulation.hpp"

namespace {

using namespace vortex::ring_app;

int ring_main(int argc, char** argv) {
  Settings s;
  if (!parse_settings(argc, argv, s)) return 0;
  if (s.blob) return blob_main(s);
  const RunPlan plan = plan_run(s);
  RingSetup setup = make_setup(s, plan);
  Recorder recorder(s, setup, plan.every);
  if (!s.quiet) print_setup(s, plan, setup);
  const RunTotals totals = run_ring(s, plan, setup, recorder);
  report_ring(s, setup, recorder.history(), totals);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return vortex::cli::run_app("vortex-ring", argc, argv, ring_main);
}
