#include "ring_plot.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace vortex::ring_app {

bool plot_ring(const PlotFiles& f) {
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
  const int status = run_gnuplot(f.folder, "ring_plot.gp");
  if (status != 0) {
    std::fprintf(stderr, "vortex-ring: warning: gnuplot failed (status %d); no PNG written\n",
                 status);
    return false;
  }
  return true;
}

int run_gnuplot(const std::string& folder, const std::string& script) {
  const std::string command = "cd '" + folder + "' && gnuplot " + script + " 2>&1";
  return std::system(command.c_str());
}

}  // namespace vortex::ring_app
