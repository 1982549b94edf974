#pragma once
// The diffusion check of vortex-ring (--blob): an isolated Gaussian blob of vorticity, no
// advection, diffused by VRM or PSE. Its second moment per dimension must grow by 2 nu t and its
// total vorticity must not change.

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "vortex/diagnostics.hpp"
#include "vortex/particle_control.hpp"
#include "vortex/pse.hpp"
#include "vortex/vrm.hpp"

namespace vortex::ring_app {

struct BlobSettings {
  std::string diffusion = "vrm";
  double spacing = 1;  // lattice spacing h
  double width = 2;    // blob standard deviation, in units of h
  double nu = 1;
  double dt = 0;  // 0: h^2 = 8 nu dt (the spacing rule of Stock & Gharakhani 2008)
  int steps = 40;
  double remove_threshold = 1e-6;
  std::string folder;
  bool plot = true;
};

struct BlobResult {
  int steps = 0;
  std::size_t n_final = 0;
  double moment_rel_err = 0;       // largest |growth / (2 nu t) - 1| over dimensions and steps
  double vorticity_rel_drift = 0;  // largest relative change of sum Gamma
  double impulse_rel_drift = 0;  // largest change of the linear impulse, relative to sum |Gamma| h
  double seconds = 0;
};

inline BlobResult run_blob(const BlobSettings& s) {
  const auto start = std::chrono::steady_clock::now();
  const double h = s.spacing, sd = s.width * h;
  const double dt = s.dt > 0 ? s.dt : h * h / (8 * s.nu);
  const double t_end = dt * s.steps;
  const bool pse = s.diffusion == "pse";
  // VRM starts from the blob out to 4 standard deviations and inserts particles as it spreads; PSE
  // needs the whole region the blob reaches at the end, a cube of 5 final deviations.
  const double final_sd = std::sqrt(sd * sd + 2 * s.nu * t_end);
  const int n = static_cast<int>(std::ceil((pse ? 5 * final_sd : 4 * sd) / h));
  ParticleSet p;
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int k = -n; k <= n; ++k) {
        const double x = i * h, y = j * h, z = k * h, r2 = x * x + y * y + z * z;
        if (!pse && r2 > 16 * sd * sd) continue;
        // A vector strength with all three components, so that each is checked.
        const double w = std::exp(-r2 / (2 * sd * sd)) * h * h * h;
        p.push_back(x, y, z, 0.3 * w, -0.2 * w, w, h);
      }
  VrmOptions vrm;
  vrm.spacing = h;
  PseOptions pse_options;
  pse_options.epsilon = h;
  pse_options.volume = h * h * h;
  ParticleControlOptions control;
  control.spacing = h;
  control.remove_threshold = s.remove_threshold;

  auto moments = [&](std::array<double, 3>& m2) {
    double m0 = 0;
    m2 = {0, 0, 0};
    for (std::size_t i = 0; i < p.size(); ++i) {
      m0 += p.gz[i];
      m2[0] += p.gz[i] * p.x[i] * p.x[i];
      m2[1] += p.gz[i] * p.y[i] * p.y[i];
      m2[2] += p.gz[i] * p.z[i] * p.z[i];
    }
    for (double& m : m2) m /= m0;
  };
  std::array<double, 3> m2_start{}, m2{};
  moments(m2_start);
  const Diagnostics d0 = compute_diagnostics(p);
  BlobResult r;
  std::ofstream csv(s.folder + "/blob.csv");
  csv << "time,count,m2_x,m2_y,m2_z,m2_theory,vorticity_z\n";
  csv.precision(15);
  csv << 0 << ',' << p.size() << ',' << m2_start[0] << ',' << m2_start[1] << ',' << m2_start[2]
      << ',' << m2_start[0] << ',' << d0.total_vorticity[2] << '\n';
  for (int step = 1; step <= s.steps; ++step) {
    if (pse) {
      pse_diffuse(p, s.nu, dt, pse_options);
    } else {
      vrm_diffuse(p, s.nu, dt, vrm);
      control_particles(p, control);
    }
    moments(m2);
    const double t = step * dt, growth = 2 * s.nu * t;
    for (int k = 0; k < 3; ++k)
      r.moment_rel_err = std::max(r.moment_rel_err, std::abs((m2[k] - m2_start[k]) / growth - 1));
    const Diagnostics d = compute_diagnostics(p);
    r.vorticity_rel_drift =
        std::max(r.vorticity_rel_drift, relative_change(d.total_vorticity, d0.total_vorticity));
    std::array<double, 3> di{};
    for (int k = 0; k < 3; ++k) di[k] = d.linear_impulse[k] - d0.linear_impulse[k];
    r.impulse_rel_drift = std::max(r.impulse_rel_drift, norm(di) / (d0.sum_strength * h));
    csv << t << ',' << p.size() << ',' << m2[0] << ',' << m2[1] << ',' << m2[2] << ','
        << m2_start[0] + growth << ',' << d.total_vorticity[2] << '\n';
  }
  csv.close();
  r.steps = s.steps;
  r.n_final = p.size();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (s.plot) {
    std::ofstream gp(s.folder + "/blob_plot.gp");
    gp << "set terminal pngcairo size 900,600 font 'sans,11'\nset output 'blob.png'\n"
       << "set datafile separator ','\nset grid\nset key top left\n"
       << "set title 'Gaussian blob diffused by " << (pse ? "PSE" : "VRM")
       << ": second moment per dimension (theory: s0^2 + 2 nu t)'\n"
       << "set xlabel 'time'\nset ylabel 'second moment'\n"
       << "plot 'blob.csv' using 1:3 with points pt 6 title 'x', '' using 1:4 with points pt 4 "
          "title 'y', '' using 1:5 with points pt 2 title 'z', '' using 1:6 with lines lw 2 title "
          "'theory'\n";
    gp.close();
    const std::string command = "cd '" + s.folder + "' && gnuplot blob_plot.gp 2>&1";
    if (std::system(command.c_str()) != 0)
      std::fprintf(stderr, "vortex-ring: warning: gnuplot failed; no blob.png written\n");
  }
  return r;
}

}  // namespace vortex::ring_app
