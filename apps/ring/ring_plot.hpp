#pragma once
// The PNG figure of vortex-ring, drawn by gnuplot from the run's CSV files: ring position and
// speed against time, measured and theoretical (or, for two rings, both positions and radii).

#include <cstdio>
#include <cstdlib>
#include <fstream>
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
inline bool plot_ring(const PlotFiles& f) {
  const std::string script = f.folder + "/ring_plot.gp";
  {
    std::ofstream gp(script);
    gp << "set terminal pngcairo size 1000,900 font 'sans,11'\n"
       << "set output '" << f.png << "'\n"
       << "set datafile separator ','\n"
       << "set key autotitle columnhead\n"
       << "set grid\n"
       << "set multiplot layout 2,1 title \"" << f.title << "\"\n"
       << "set xlabel 'time'\n";
    if (!f.two_rings) {
      gp << "set ylabel 'ring position Z (impulse centroid)'\n"
         << "set key top left\n"
         << "plot '" << f.diagnostics << "' using 'time':'ring_z' with lines lw 2 title 'measured'";
      if (f.have_theory) gp << ", '' using 'time':'theory_z' with lines dt 2 lw 2 title 'theory'";
      gp << "\nset ylabel 'translation speed U'\n"
         << "set key bottom left\n"
         << "plot '" << f.diagnostics
         << "' using 'time':'speed' with lines lc rgb '#c0c0c0' title 'measured, per step', '"
         << f.speeds
         << "' using 't':'measured' with linespoints pt 7 lw 2 title 'measured, window fit'";
      if (f.have_theory)
        gp << ", '" << f.diagnostics
           << "' using 'time':'theory_speed' with lines dt 2 lw 2 title 'theory'";
      gp << "\n";
    } else {
      gp << "set ylabel 'ring position Z'\n"
         << "set key top left\n"
         << "plot '" << f.diagnostics << "' using 'time':'ring1_z' with lines lw 2 title 'ring 1', "
         << "'' using 'time':'ring2_z' with lines lw 2 title 'ring 2'\n"
         << "set ylabel 'ring radius R'\n"
         << "plot '" << f.diagnostics << "' using 'time':'ring1_r' with lines lw 2 title 'ring 1', "
         << "'' using 'time':'ring2_r' with lines lw 2 title 'ring 2'\n";
    }
    gp << "unset multiplot\n";
  }
  const std::string command = "cd '" + f.folder + "' && gnuplot ring_plot.gp 2>&1";
  const int status = std::system(command.c_str());
  if (status != 0) {
    std::fprintf(stderr, "vortex-ring: warning: gnuplot failed (status %d); no PNG written\n",
                 status);
    return false;
  }
  return true;
}

}  // namespace vortex::ring_app
