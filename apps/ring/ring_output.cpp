#include "ring_output.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>

#include "ring_plot.hpp"
#include "vortex/file_io.hpp"

namespace vortex::ring_app {
namespace {

void write_speeds_csv(const std::string& path, const std::vector<Window>& windows) {
  std::ofstream out(path);
  out << "t,measured,theory\n";
  for (const Window& w : windows) out << w.t_mid << ',' << w.measured << ',' << w.theory << '\n';
}

void print_summary(const Settings& s, const RingSetup& setup, const RingHistory& history,
                   const RunTotals& totals, const SpeedFit& fit) {
  std::printf("vortex-ring: %d steps, t = %.4g, %zu particles at the end, %.1f s (%.3f s/step",
              s.steps, totals.t, totals.n_final, totals.seconds, totals.seconds / s.steps);
  if (setup.viscous)
    std::printf(", diffusion %.1f s, %zu inserted, %zu removed", totals.diffusion_seconds,
                totals.inserted, totals.removed);
  std::printf(")\n");
  if (setup.have_theory) {
    std::printf("  speed: measured %.6f, %s %.6f, relative error %.3e\n", fit.measured,
                setup.viscous ? "Saffman" : "thin-ring theory", fit.expected, fit.rel_err);
    std::printf("  speed over %zu windows: largest relative error %.3e\n", fit.windows.size(),
                fit.max_window_err);
    if (!s.quiet)
      for (const Window& w : fit.windows)
        std::printf("    t %.4f  measured %.6f  theory %.6f  (%+.3f%%)\n", w.t_mid, w.measured,
                    w.theory, 100 * (w.measured / w.theory - 1));
  } else {
    std::printf("  pair speed %.6f; passages of one ring through the other: %d\n", fit.measured,
                fit.passages);
  }
  std::printf("  linear impulse drift %.3e, circulation drift %.3e (largest over the run)\n",
              history.max_impulse_drift, history.max_circulation_drift);
}

std::string plot_title(const Settings& s, const RingSetup& setup, std::size_t n, double rel_err) {
  char title[256];
  if (s.second_ring)
    std::snprintf(
        title, sizeof title, "Two coaxial rings (leapfrogging), N = %zu, %s", n,
        setup.viscous ? ("Re " + json_number(s.ring.circulation / setup.nu)).c_str() : "inviscid");
  else
    std::snprintf(title, sizeof title, "Vortex ring, %s, N = %zu: speed error %.2f%%",
                  setup.viscous
                      ? ("Re " + json_number(s.ring.circulation / setup.nu) + " (Saffman)").c_str()
                      : "inviscid (thin-ring theory)",
                  n, 100 * rel_err);
  return title;
}

void plot(const Settings& s, const RingSetup& setup, std::size_t n, double rel_err) {
  PlotFiles plot;
  plot.folder = s.output;
  plot.diagnostics = "diagnostics.csv";
  plot.speeds = "speeds.csv";
  plot.png = "ring.png";
  plot.two_rings = s.second_ring;
  plot.have_theory = setup.have_theory;
  plot.title = plot_title(s, setup, n, rel_err);
  if (plot_ring(plot) && !s.quiet) std::printf("  plot: %s/ring.png\n", s.output.c_str());
}

}  // namespace

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", v);
  return buffer;
}

void write_summary_json(const std::string& path, const Summary& r) {
  AtomicFile out(path);
  out.write("{\"steps\": " + std::to_string(r.steps) + ", \"n_final\": " +
            std::to_string(r.n_final) + ", \"speed_measured\": " + json_number(r.speed_measured) +
            ", \"speed_theory\": " + json_number(r.speed_theory) +
            ", \"speed_rel_err\": " + json_number(r.speed_rel_err) +
            ", \"impulse_rel_drift\": " + json_number(r.impulse_rel_drift) +
            ", \"circulation_rel_drift\": " + json_number(r.circulation_rel_drift) +
            ", \"seconds\": " + json_number(r.seconds) + "}\n");
  out.commit();
}

void print_setup(const Settings& s, const RunPlan& plan, const RingSetup& setup) {
  std::printf(
      "vortex-ring: %zu particles (%d layers, %zu per cross-section, sigma %.4g, h %.4g)%s\n",
      setup.particles.size(), s.ring.layers, ring_cross_section(setup.first).weight.size(),
      setup.sigma, setup.h, s.second_ring ? ", two rings" : "");
  std::printf("  R %.4g  a %.4g  Gamma %.4g  %s  dt %.4g  steps %d  %s  %s stretching  %s\n",
              s.ring.radius, s.ring.core_radius, s.ring.circulation,
              plan.viscous ? ("nu " + json_number(plan.nu) + " (Re " +
                              json_number(s.ring.circulation / plan.nu) + ", " + s.diffusion + ")")
                                 .c_str()
                           : "inviscid",
              s.dt, s.steps, to_string(plan.scheme).c_str(), to_string(plan.stretching).c_str(),
              (to_string(plan.solver.method) + "/" + to_string(plan.solver.core)).c_str());
  const RingTheory& theory = setup.theory;
  std::printf(
      "  theory: U = %.6f (ln L_sigma %.4f, D %.4f; uniform-core equivalent a %.4f,"
      " Gaussian delta0 %.4f; as one filament %.6f)\n",
      theory.speed, theory.log_L, theory.slope_D, theory.a_equivalent, theory.delta0,
      theory.filament_speed);
  std::fflush(stdout);
}

void report_ring(const Settings& s, const RingSetup& setup, const RingHistory& history,
                 const RunTotals& totals) {
  const SpeedFit fit = fit_speed(history, s.skip, s.steps, s.windows, setup.have_theory);
  write_speeds_csv(s.output + "/speeds.csv", fit.windows);
  print_summary(s, setup, history, totals, fit);
  if (!s.no_plot) plot(s, setup, totals.n_final, fit.rel_err);
  if (s.json.empty()) return;
  write_summary_json(
      s.json, {s.steps, totals.n_final, history.max_impulse_drift, history.max_circulation_drift,
               totals.seconds, fit.measured, fit.expected, fit.rel_err});
}

}  // namespace vortex::ring_app
