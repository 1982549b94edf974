#include "projections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "body_output.hpp"
#include "vortex/file_io.hpp"

namespace vortex::body_app {

namespace {

const char* const kAxisName[3] = {"x", "y", "z"};

std::string grid_path(const std::string& dir, int axis, long step) {
  char name[64];
  std::snprintf(name, sizeof name, "/projection-%s-%06ld.dat", kAxisName[axis], step);
  return dir + name;
}

}  // namespace

void particle_box(const ParticleSet& p, double lo[3], double hi[3]) {
  const std::vector<double>* pos[3] = {&p.x, &p.y, &p.z};
  for (int a = 0; a < 3; ++a) {
    const auto [mn, mx] = std::minmax_element(pos[a]->begin(), pos[a]->end());
    lo[a] = *mn;
    hi[a] = *mx;
  }
}

bool write_projections(const ParticleSet& p, const std::string& dir, long step, int cells) {
  const std::size_t n = p.size();
  if (n == 0 || cells < 2) return false;
  const std::vector<double>* pos[3] = {&p.x, &p.y, &p.z};
  double lo[3], hi[3];
  particle_box(p, lo, hi);
  const double extent = std::max({hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-12});
  const double cell = extent / cells;
  for (int axis = 2; axis >= 0; --axis) {  // along z, y, x, the paper's order
    const int u = axis == 0 ? 1 : 0, v = axis == 2 ? 1 : 2;
    const int nu = std::max(1, static_cast<int>(std::ceil((hi[u] - lo[u]) / cell)));
    const int nv = std::max(1, static_cast<int>(std::ceil((hi[v] - lo[v]) / cell)));
    std::vector<double> grid(static_cast<std::size_t>(nu) * nv, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const int iu = std::min(nu - 1, static_cast<int>(((*pos[u])[i] - lo[u]) / cell));
      const int iv = std::min(nv - 1, static_cast<int>(((*pos[v])[i] - lo[v]) / cell));
      grid[static_cast<std::size_t>(iu) * nv + iv] +=
          std::sqrt(p.gx[i] * p.gx[i] + p.gy[i] * p.gy[i] + p.gz[i] * p.gz[i]);
    }
    // Rows "u v value" (bin centres), one block per u: gnuplot's `with image` grid.
    std::ostringstream out;
    out << "# integrated |omega| along " << kAxisName[axis] << ": " << kAxisName[u] << " "
        << kAxisName[v] << " value\n";
    const double area = cell * cell;
    for (int iu = 0; iu < nu; ++iu) {
      for (int iv = 0; iv < nv; ++iv)
        out << lo[u] + (iu + 0.5) * cell << ' ' << lo[v] + (iv + 0.5) * cell << ' '
            << grid[static_cast<std::size_t>(iu) * nv + iv] / area << '\n';
      out << '\n';
    }
    AtomicFile f(grid_path(dir, axis, step));
    f.write(out.str());
    f.commit();
  }
  return true;
}

bool plot_projections(const std::string& dir, long step, double time) {
  std::ostringstream g;
  char png[64];
  std::snprintf(png, sizeof png, "/projections-%06ld.png", step);
  g << "set terminal pngcairo size 1500,520\nset output '" << dir << png << "'\n"
    << "set multiplot layout 1,3 title 'integrated vorticity magnitude, t = " << time << "'\n"
    << "set logscale cb\nset format cb '10^{%L}'\nset palette rgbformulae 21,22,23\n"
    << "set size ratio -1\nunset key\n";
  const char* labels[3][2] = {{"y", "z"}, {"x", "z"}, {"x", "y"}};
  for (int axis = 2; axis >= 0; --axis) {
    // Three decades below the largest value: the wake's structure, not the counting noise.
    g << "stats '" << grid_path(dir, axis, step) << "' using 3 nooutput\n"
      << "set cbrange [STATS_max * 1e-3 : STATS_max]\n"
      << "set title 'along " << kAxisName[axis] << "'\nset xlabel '" << labels[axis][0]
      << "'\nset ylabel '" << labels[axis][1] << "'\n"
      << "plot '" << grid_path(dir, axis, step) << "' using 1:2:($3 > 0 ? $3 : NaN) with image\n";
  }
  g << "unset multiplot\n";
  return run_gnuplot(dir + "/projections.gp", g.str());
}

}  // namespace vortex::body_app
