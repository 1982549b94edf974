#pragma once
// The PNG figure of vortex-ring, drawn by gnuplot from the run's CSV files: ring position and
// speed against time, measured and theoretical (or, for two rings, both positions and radii).

#include <string>

namespace vortex::ring_app {

struct PlotFiles {
  std::string folder;       // where the files are; the script runs there
  std::string diagnostics;  // per-step CSV (columns time, ring_z, theory_z, ...)
  std::string speeds;       // windowed speeds: t, measured, theory
  std::string png;
  std::string title;
  bool two_rings = false;
  bool have_theory = true;
};

// Writes <folder>/ring_plot.gp and runs gnuplot on it. Returns false (with a message on stderr)
// when gnuplot is missing or fails; the run's other outputs do not depend on it.
bool plot_ring(const PlotFiles& f);

// Runs gnuplot on `script` in `folder`; returns its exit status.
int run_gnuplot(const std::string& folder, const std::string& script);

}  // namespace vortex::ring_app
