#include "ring_blob.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "cli.hpp"
#include "ring_diffusion.hpp"
#include "ring_output.hpp"
#include "ring_plot.hpp"
#include "vortex/diagnostics.hpp"

namespace vortex::ring_app {
namespace {

// A Gaussian blob of standard deviation sd on the lattice of spacing h, i, j, k in [-n, n]; VRM
// keeps only the lattice points within 4 deviations.
ParticleSet blob_particles(double h, double sd, int n, bool whole_cube) {
  ParticleSet p;
  for (int i = -n; i <= n; ++i)
    for (int j = -n; j <= n; ++j)
      for (int k = -n; k <= n; ++k) {
        const double x = i * h, y = j * h, z = k * h, r2 = x * x + y * y + z * z;
        if (!whole_cube && r2 > 16 * sd * sd) continue;
        // A vector strength with all three components, so that each is checked.
        const double w = std::exp(-r2 / (2 * sd * sd)) * h * h * h;
        p.push_back(x, y, z, 0.3 * w, -0.2 * w, w, h);
      }
  return p;
}

void write_row(std::ofstream& csv, double t, std::size_t n, const std::array<double, 3>& m2,
               double m2_theory, double vorticity_z) {
  csv << t << ',' << n << ',' << m2[0] << ',' << m2[1] << ',' << m2[2] << ',' << m2_theory << ','
      << vorticity_z << '\n';
}

// Takes the errors at one time into the largest ones of the run.
void add_errors(BlobResult& r, const std::array<double, 3>& m2, const std::array<double, 3>& m2_0,
                double growth, const Diagnostics& d, const Diagnostics& d0, double h) {
  for (int k = 0; k < 3; ++k)
    r.moment_rel_err = std::max(r.moment_rel_err, std::abs((m2[k] - m2_0[k]) / growth - 1));
  r.vorticity_rel_drift =
      std::max(r.vorticity_rel_drift, relative_change(d.total_vorticity, d0.total_vorticity));
  std::array<double, 3> di{};
  for (int k = 0; k < 3; ++k) di[k] = d.linear_impulse[k] - d0.linear_impulse[k];
  r.impulse_rel_drift = std::max(r.impulse_rel_drift, norm(di) / (d0.sum_strength * h));
}

void plot_blob(const std::string& folder, bool pse) {
  {
    std::ofstream gp(folder + "/blob_plot.gp");
    gp << "set terminal pngcairo size 900,600 font 'sans,11'\nset output 'blob.png'\n"
       << "set datafile separator ','\nset grid\nset key top left\n"
       << "set title 'Gaussian blob diffused by " << (pse ? "PSE" : "VRM")
       << ": second moment per dimension (theory: s0^2 + 2 nu t)'\n"
       << "set xlabel 'time'\nset ylabel 'second moment'\n"
       << "plot 'blob.csv' using 1:3 with points pt 6 title 'x', '' using 1:4 with points pt 4 "
          "title 'y', '' using 1:5 with points pt 2 title 'z', '' using 1:6 with lines lw 2 title "
          "'theory'\n";
  }
  if (run_gnuplot(folder, "blob_plot.gp") != 0)
    std::fprintf(stderr, "vortex-ring: warning: gnuplot failed; no blob.png written\n");
}

BlobSettings blob_settings(const Settings& s) {
  BlobSettings b;
  b.diffusion = s.diffusion;
  if (b.diffusion != "vrm" && b.diffusion != "pse")
    throw cli::UsageError("--diffusion: '" + b.diffusion + "' (accepted: vrm, pse)");
  if (s.spacing > 0) b.spacing = s.spacing;
  b.width = s.blob_width;
  if (s.nu > 0) b.nu = s.nu;
  if (s.dt_given) b.dt = s.dt;
  if (s.steps_given) b.steps = s.steps;
  b.remove_threshold = s.remove_threshold;
  b.folder = s.output;
  b.plot = !s.no_plot;
  return b;
}

}  // namespace

BlobResult run_blob(const BlobSettings& s) {
  const auto start = std::chrono::steady_clock::now();
  const double h = s.spacing, sd = s.width * h;
  const double dt = s.dt > 0 ? s.dt : h * h / (8 * s.nu);
  const double t_end = dt * s.steps;
  const bool pse = s.diffusion == "pse";
  // VRM starts from the blob out to 4 standard deviations and inserts particles as it spreads; PSE
  // needs the whole region the blob reaches at the end, a cube of 5 final deviations.
  const double final_sd = std::sqrt(sd * sd + 2 * s.nu * t_end);
  const int n = static_cast<int>(std::ceil((pse ? 5 * final_sd : 4 * sd) / h));
  ParticleSet p = blob_particles(h, sd, n, pse);
  const Diffusion diffusion = lattice_diffusion(pse, h, s.remove_threshold);
  const std::array<double, 3> m2_start = z_vorticity_second_moments(p);
  const Diagnostics d0 = compute_diagnostics(p);
  BlobResult r;
  std::ofstream csv(s.folder + "/blob.csv");
  csv << "time,count,m2_x,m2_y,m2_z,m2_theory,vorticity_z\n";
  csv.precision(15);
  write_row(csv, 0, p.size(), m2_start, m2_start[0], d0.total_vorticity[2]);
  for (int step = 1; step <= s.steps; ++step) {
    diffuse(p, s.nu, dt, diffusion);
    if (!pse) control_particles(p, diffusion.control);
    const std::array<double, 3> m2 = z_vorticity_second_moments(p);
    const double t = step * dt, growth = 2 * s.nu * t;
    const Diagnostics d = compute_diagnostics(p);
    add_errors(r, m2, m2_start, growth, d, d0, h);
    write_row(csv, t, p.size(), m2, m2_start[0] + growth, d.total_vorticity[2]);
  }
  csv.close();
  r.steps = s.steps;
  r.n_final = p.size();
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (s.plot) plot_blob(s.folder, pse);
  return r;
}

int blob_main(const Settings& s) {
  const BlobSettings b = blob_settings(s);
  std::filesystem::create_directories(s.output);
  const BlobResult r = run_blob(b);
  std::printf("vortex-ring --blob: %s, %d steps, %zu particles at the end, %.1f s\n",
              b.diffusion.c_str(), r.steps, r.n_final, r.seconds);
  std::printf("  second-moment growth: largest relative error %.3e (against 2 nu t)\n",
              r.moment_rel_err);
  std::printf("  total vorticity drift %.3e, linear impulse drift %.3e (of sum |Gamma| h)\n",
              r.vorticity_rel_drift, r.impulse_rel_drift);
  if (s.json.empty()) return 0;
  write_summary_json(s.json,
                     {r.steps, r.n_final, r.impulse_rel_drift, r.vorticity_rel_drift, r.seconds});
  return 0;
}

}  // namespace vortex::ring_app
