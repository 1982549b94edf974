// vortex-ring: a vortex ring (or two coaxial rings) advanced by the vortex particle method, with
// stretching and, at finite Reynolds number, viscous diffusion; measures the ring's translation
// speed against the thin-ring theory (inviscid) or Saffman's formula (viscous), and writes a .pvd
// series for ParaView, a per-step diagnostics CSV, a PNG plot and, on request, a JSON summary.

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "app_main.hpp"
#include "cli.hpp"
#include "memory_check.hpp"
#include "ring_blob.hpp"
#include "ring_case.hpp"
#include "ring_plot.hpp"
#include "solver_cli.hpp"
#include "vortex/diagnostics.hpp"
#include "vortex/file_io.hpp"
#include "vortex/generators.hpp"
#include "vortex/particle_control.hpp"
#include "vortex/pse.hpp"
#include "vortex/pvd.hpp"
#include "vortex/ring_theory.hpp"
#include "vortex/solver.hpp"
#include "vortex/time_integration.hpp"
#include "vortex/vrm.hpp"
#include "vortex/vtp.hpp"

namespace {

using namespace vortex;
using Clock = std::chrono::steady_clock;

struct Settings {
  // The ring (vortex::RingOptions) and an optional second one behind it on the same axis.
  double radius = 1.0, core_radius = 0.1, circulation = 1.0, gaussian_width = 0.5, overlap = 1.5;
  int layers = 2, stations = 0, per_section = 0;
  bool second_ring = false;
  double separation = 0.4, second_radius = 0;
  // Physics and time stepping.
  double re = 0, nu = 0, dt = 0.005;
  int steps = 400;
  std::string scheme = "heun", stretching = "transpose", diffusion = "vrm";
  // Diffusion and particle control.
  double spacing = 0, remove_threshold = 1e-6, merge_distance = 0.5, insert_threshold = 0;
  int max_particles = 0;
  // Measurement and output.
  double skip = 0.1;
  int windows = 8;
  std::string output = "vortex-ring-out", json;
  int every = -1;
  double progress = 5;
  bool no_plot = false, quiet = false;
  // The diffusion check: a Gaussian blob, no advection.
  bool blob = false;
  double blob_width = 2;
};

double viscosity(const Settings& s) {
  if (s.nu > 0) return s.nu;
  return s.re > 0 ? s.circulation / s.re : 0.0;
}

RingOptions ring_options(const Settings& s) {
  RingOptions o;
  o.radius = s.radius;
  o.core_radius = s.core_radius;
  o.circulation = s.circulation;
  o.gaussian_width = s.gaussian_width;
  o.overlap = s.overlap;
  o.layers = s.layers;
  o.stations = s.stations;
  return o;
}

int layers_for_section(int per_section) {
  for (int layers = 0; layers <= 20; ++layers)
    if (1 + 3 * layers * (layers + 1) == per_section) return layers;
  throw cli::UsageError("--per-section: " + std::to_string(per_section) +
                        " is not 1 + 3 L (L + 1) (1, 7, 19, 37, 61, 91, ...)");
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.10g", v);
  return buffer;
}

// Speed over consecutive windows of the measurement interval: fitted slope against the mean of
// the theory over the same window.
struct Window {
  double t_mid, measured, theory;
};

std::vector<Window> window_speeds(const std::vector<double>& t, const std::vector<double>& z,
                                  const std::vector<double>& theory_z, std::size_t first,
                                  int windows) {
  std::vector<Window> out;
  const std::size_t n = t.size();
  if (n < first + 4 || windows < 1) return out;
  const int count = static_cast<int>(std::min<std::size_t>(windows, (n - first) / 3));
  for (int w = 0; w < count; ++w) {
    // Consecutive windows share their end points.
    const std::size_t b = first + (n - 1 - first) * w / count;
    const std::size_t e = first + (n - 1 - first) * (w + 1) / count + 1;
    const std::vector<double> tt(t.begin() + b, t.begin() + e);
    const std::vector<double> zz(z.begin() + b, z.begin() + e);
    const double dt = tt.back() - tt.front();
    const double theory = theory_z.empty() ? std::numeric_limits<double>::quiet_NaN()
                                           : (theory_z[e - 1] - theory_z[b]) / dt;
    out.push_back({0.5 * (tt.front() + tt.back()), fitted_slope(tt, zz), theory});
  }
  return out;
}

int ring_main(int argc, char** argv) {
  // A case file, if any, supplies arguments that the command line may override.
  std::vector<std::string> args{argv[0]};
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--case") {
      for (auto& x : ring_app::case_file_arguments(argv[i + 1])) args.push_back(x);
    } else if (a.rfind("--case=", 0) == 0) {
      for (auto& x : ring_app::case_file_arguments(a.substr(7))) args.push_back(x);
    }
  }
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  std::vector<char*> arg_ptrs;
  for (auto& a : args) arg_ptrs.push_back(a.data());

  Settings s;
  std::string case_file;
  cli::OptionParser parser(
      "vortex-ring", "[options]",
      "Advances a vortex ring (or two coaxial rings, --second-ring) with the vortex particle\n"
      "method: Runge-Kutta steps (Heun by default, two velocity evaluations) with vortex\n"
      "stretching, and viscous diffusion by the Vorticity Redistribution Method when --re > 0.\n"
      "Measures the translation speed of the impulse centroid and compares it with the thin-ring\n"
      "theory of the particle ring (inviscid) or with Saffman's viscous formula. Writes ring.pvd "
      "+\n"
      "ring_*.vtp, diagnostics.csv, "
      "speeds.csv and ring.png into the output folder. The defaults run the inviscid check.");
  parser.add("--case", "FILE", "JSON case file (keys: these option names without dashes)",
             case_file, "none");
  parser.add("--radius", "R", "ring radius", s.radius);
  parser.add("--core-radius", "A", "core radius a: the cross-section disk holding the particles",
             s.core_radius);
  parser.add("--circulation", "G", "circulation of the ring", s.circulation);
  parser.add("--layers", "L", "particle layers around the core center (0: one filament)", s.layers);
  parser.add("--per-section", "N",
             "particles per cross-section, 1 + 3 L (L + 1): 1, 7, 19, 37, 61, ... (sets --layers)",
             s.per_section, "from --layers");
  parser.add("--stations", "S", "cross-sections around the ring; 0: spacing as in the core",
             s.stations);
  parser.add("--gaussian-width", "W", "Gaussian vorticity exp(-(r/(W a))^2) over the core",
             s.gaussian_width);
  parser.add("--overlap", "F", "particle core radius sigma = F * spacing", s.overlap);
  parser.add_flag("--second-ring", "add a second, coaxial ring behind the first (leapfrogging)",
                  s.second_ring);
  parser.add("--separation", "D", "axial distance of the second ring behind the first",
             s.separation);
  parser.add("--second-radius", "R2", "radius of the second ring; 0: same as the first",
             s.second_radius);
  parser.add("--re", "RE", "Reynolds number circulation / nu; 0: inviscid", s.re);
  parser.add("--nu", "NU", "kinematic viscosity (overrides --re)", s.nu);
  parser.add("--dt", "DT", "time step", s.dt);
  parser.add("--steps", "N", "number of steps", s.steps);
  parser.add("--scheme", "NAME", "time scheme: euler, heun, midpoint, rk3, rk4", s.scheme);
  parser.add("--stretching", "NAME", "vortex stretching: transpose, classical, none", s.stretching);
  parser.add("--diffusion", "NAME", "viscous scheme: vrm or pse (used when viscous)", s.diffusion);
  parser.add("--spacing", "H", "diffusion lattice spacing; 0: the ring's particle spacing",
             s.spacing);
  parser.add("--remove-threshold", "E",
             "remove particles with |Gamma| below E times the largest (viscous runs)",
             s.remove_threshold);
  parser.add("--insert-threshold", "E",
             "VRM inserts particles only around particles with |Gamma| above E times the largest; "
             "0: where a new particle's share (about nu dt / h^2 of it) would outlive "
             "--remove-threshold",
             s.insert_threshold, "0");
  parser.add("--merge-distance", "M",
             "merge particles closer than M * spacing (viscous runs, or when given); 0: never",
             s.merge_distance);
  parser.add("--max-particles", "N", "keep at most N particles (removing the weakest); 0: no bound",
             s.max_particles);
  parser.add("--skip", "F", "fraction of the run left out of the speed fit (start-up)", s.skip);
  parser.add("--windows", "W", "windows of the speed-versus-time comparison", s.windows);
  parser.add("-o,--output", "DIR", "output folder", s.output);
  parser.add("--every", "K", "write a .vtp every K steps (about 20 files by default); 0: none",
             s.every, "steps/20");
  parser.add("--json", "FILE", "write the summary as JSON", s.json);
  parser.add("--progress", "SECONDS", "progress line interval; 0: none", s.progress);
  parser.add_flag("--no-plot", "do not draw ring.png", s.no_plot);
  parser.add_flag("-q,--quiet", "print only the summary", s.quiet);
  parser.add_flag("--blob",
                  "diffusion check instead of a ring: a Gaussian blob on the lattice --spacing "
                  "(default 1), no advection, --diffusion vrm|pse, --nu (default 1), dt from "
                  "h^2 = 8 nu dt unless given, --steps (default 40)",
                  s.blob);
  parser.add("--blob-width", "S", "standard deviation of the blob, in lattice spacings",
             s.blob_width);
  cli::SolverCli solver_cli;
  solver_cli.add_to(parser);
  if (!parser.parse(static_cast<int>(arg_ptrs.size()), arg_ptrs.data())) return 0;

  if (s.blob) {
    ring_app::BlobSettings b;
    b.diffusion = s.diffusion;
    if (b.diffusion != "vrm" && b.diffusion != "pse")
      throw cli::UsageError("--diffusion: '" + b.diffusion + "' (accepted: vrm, pse)");
    if (s.spacing > 0) b.spacing = s.spacing;
    b.width = s.blob_width;
    if (s.nu > 0) b.nu = s.nu;
    if (parser.given("--dt")) b.dt = s.dt;
    if (parser.given("--steps")) b.steps = s.steps;
    b.remove_threshold = s.remove_threshold;
    b.folder = s.output;
    b.plot = !s.no_plot;
    std::filesystem::create_directories(s.output);
    const ring_app::BlobResult r = ring_app::run_blob(b);
    std::printf("vortex-ring --blob: %s, %d steps, %zu particles at the end, %.1f s\n",
                b.diffusion.c_str(), r.steps, r.n_final, r.seconds);
    std::printf("  second-moment growth: largest relative error %.3e (against 2 nu t)\n",
                r.moment_rel_err);
    std::printf("  total vorticity drift %.3e, linear impulse drift %.3e (of sum |Gamma| h)\n",
                r.vorticity_rel_drift, r.impulse_rel_drift);
    if (!s.json.empty()) {
      AtomicFile out(s.json);
      out.write("{\"steps\": " + std::to_string(r.steps) +
                ", \"n_final\": " + std::to_string(r.n_final) +
                ", \"speed_measured\": null, \"speed_theory\": null, \"speed_rel_err\": null" +
                ", \"impulse_rel_drift\": " + json_number(r.impulse_rel_drift) +
                ", \"circulation_rel_drift\": " + json_number(r.vorticity_rel_drift) +
                ", \"seconds\": " + json_number(r.seconds) + "}\n");
      out.commit();
    }
    return 0;
  }
  if (s.per_section > 0) s.layers = layers_for_section(s.per_section);
  if (s.steps < 1) throw cli::UsageError("--steps must be at least 1");
  if (!(s.dt > 0)) throw cli::UsageError("--dt must be positive");
  if (!(s.skip >= 0 && s.skip < 1)) throw cli::UsageError("--skip must be in [0, 1)");
  const SolverOptions solver_options = solver_cli.options();
  if (solver_options.core == Core::Singular)
    throw cli::UsageError("--core singular: a ring of singular particles has no finite speed");
  if (solver_options.threads > 0) omp_set_num_threads(solver_options.threads);
  const TimeScheme scheme = parse_time_scheme(s.scheme);
  const Stretching stretching = parse_stretching(s.stretching);
  const double nu = viscosity(s);
  const bool viscous = nu > 0;
  if (viscous && s.diffusion != "vrm" && s.diffusion != "pse")
    throw cli::UsageError("--diffusion: '" + s.diffusion + "' (accepted: vrm, pse)");
  const int every = s.every >= 0 ? s.every : std::max(1, s.steps / 20);

  // Particles: every step keeps several copies of them with their velocities and gradients.
  const RingOptions first = ring_options(s);
  constexpr long double kBytesPerParticle = 1000;
  const long double ring_particles = static_cast<long double>(ring_particle_count(first));
  cli::require_memory("--layers " + std::to_string(s.layers) + " (" +
                          std::to_string(static_cast<unsigned long long>(ring_particles)) +
                          " particles per ring)",
                      kBytesPerParticle * ring_particles * (s.second_ring ? 2 : 1));
  ParticleSet particles = vortex_ring(first);
  RingOptions second = first;
  if (s.second_ring) {
    if (s.second_radius > 0) second.radius = s.second_radius;
    second.center = {0, 0, -s.separation};
    const ParticleSet behind = vortex_ring(second);
    for (std::size_t i = 0; i < behind.size(); ++i)
      particles.push_back(behind.x[i], behind.y[i], behind.z[i], behind.gx[i], behind.gy[i],
                          behind.gz[i], behind.sigma[i]);
  }
  const double h = s.core_radius / (s.layers + 0.5);
  const double sigma = s.overlap * h;
  const double spacing = s.spacing > 0 ? s.spacing : h;

  // Theory of the (first) ring.
  const RingTheory theory = particle_ring_theory(first, solver_options.core);
  auto theory_speed = [&](double t) {
    return viscous ? saffman_ring_speed(s.circulation, s.radius, theory.delta0, nu, t)
                   : theory.speed;
  };
  const bool have_theory = !s.second_ring;

  std::filesystem::create_directories(s.output);
  const std::string folder = s.output;
  PvdWriter series(folder + "/ring.pvd");
  std::vector<std::string> extra = {"ring_z", "ring_r",   "ring_circulation",
                                    "speed",  "theory_z", "theory_speed"};
  if (s.second_ring)
    for (const char* c : {"ring1_z", "ring1_r", "ring2_z", "ring2_r"}) extra.push_back(c);
  DiagnosticsCsv csv(folder + "/diagnostics.csv", extra);

  if (!s.quiet) {
    std::printf(
        "vortex-ring: %zu particles (%d layers, %zu per cross-section, sigma %.4g, h %.4g)%s\n",
        particles.size(), s.layers, ring_cross_section(first).weight.size(), sigma, h,
        s.second_ring ? ", two rings" : "");
    std::printf("  R %.4g  a %.4g  Gamma %.4g  %s  dt %.4g  steps %d  %s  %s stretching  %s\n",
                s.radius, s.core_radius, s.circulation,
                viscous ? ("nu " + json_number(nu) + " (Re " + json_number(s.circulation / nu) +
                           ", " + s.diffusion + ")")
                              .c_str()
                        : "inviscid",
                s.dt, s.steps, to_string(scheme).c_str(), to_string(stretching).c_str(),
                (to_string(solver_options.method) + "/" + to_string(solver_options.core)).c_str());
    std::printf(
        "  theory: U = %.6f (ln L_sigma %.4f, D %.4f; uniform-core equivalent a %.4f,"
        " Gaussian delta0 %.4f; as one filament %.6f)\n",
        theory.speed, theory.log_L, theory.slope_D, theory.a_equivalent, theory.delta0,
        theory.filament_speed);
    std::fflush(stdout);
  }

  Solver solver(solver_options);
  TimeIntegratorOptions integrator_options;
  integrator_options.scheme = scheme;
  integrator_options.stretching = stretching;
  TimeIntegrator integrator(solver, integrator_options);
  VrmOptions vrm;
  vrm.spacing = spacing;
  vrm.core_radius = sigma;
  // A particle's share for a new neighbour is about s2 / 2, s2 = 2 nu dt / h^2: inserting around
  // particles weaker than 2 E_remove / s2 only makes particles that are removed right away.
  const double s2 = viscous ? 2 * nu * s.dt / (spacing * spacing) : 1.0;
  vrm.insert_threshold = s.insert_threshold > 0
                             ? s.insert_threshold
                             : std::clamp(2 * s.remove_threshold / s2, 1e-4, 1e-2);
  PseOptions pse;
  pse.epsilon = spacing;
  pse.volume = spacing * spacing * spacing;
  ParticleControlOptions control;
  control.spacing = spacing;
  control.remove_threshold = s.remove_threshold;
  control.merge_distance = s.merge_distance;
  control.max_particles = static_cast<std::size_t>(std::max(0, s.max_particles));

  const std::array<double, 3> center{0, 0, 0}, axis{0, 0, 1};
  std::array<RingMeasure, 2> pair{measure_ring(vortex_ring(first), center, axis),
                                  measure_ring(vortex_ring(second), center, axis)};
  std::vector<double> times, positions, theory_positions, circulations;
  std::vector<std::array<double, 2>> pair_positions;
  Diagnostics first_diag;
  double max_impulse_drift = 0, max_circulation_drift = 0, theory_z = 0;
  double diffusion_seconds = 0;
  std::size_t inserted = 0, removed = 0;
  const auto start = Clock::now();
  auto last_progress = start;

  // Records time t: the particles and the field evaluated on them.
  auto record = [&](long step, double t, const ParticleSet& p, const VelocityField& field) {
    const Diagnostics d = compute_diagnostics(p, &field, t);
    const RingMeasure m = measure_ring(p, center, axis);
    if (step == 0) {
      first_diag = d;
      theory_z = m.position;
    } else {
      // Trapezoidal integral of the theoretical speed from the previous record.
      theory_z += 0.5 * (t - times.back()) * (theory_speed(times.back()) + theory_speed(t));
    }
    max_impulse_drift =
        std::max(max_impulse_drift, relative_change(d.linear_impulse, first_diag.linear_impulse));
    const double speed = positions.empty() ? std::numeric_limits<double>::quiet_NaN()
                                           : (m.position - positions.back()) / (t - times.back());
    times.push_back(t);
    positions.push_back(m.position);
    theory_positions.push_back(theory_z);
    std::vector<double> values = {m.position, m.radius, m.circulation,
                                  speed,      theory_z, theory_speed(t)};
    double circulation = m.circulation;
    if (s.second_ring) {
      pair = measure_two_rings(p, center, axis, pair);
      pair_positions.push_back({pair[0].position, pair[1].position});
      for (double v : {pair[0].position, pair[0].radius, pair[1].position, pair[1].radius})
        values.push_back(v);
    }
    circulations.push_back(circulation);
    max_circulation_drift =
        std::max(max_circulation_drift,
                 std::abs(circulation - circulations.front()) / std::abs(circulations.front()));
    csv.write(step, d, values);
    if (every > 0 && (step % every == 0 || step == s.steps)) {
      char name[64];
      std::snprintf(name, sizeof name, "ring_%06ld.vtp", step);
      write_vtp(folder + "/" + name, p, &field);
      series.add(t, folder + "/" + name);
    }
  };

  double t = 0;
  for (int step = 0; step < s.steps; ++step) {
    const ParticleSet before = particles;
    const VelocityField& field = integrator.step(particles, s.dt);
    record(step, t, before, field);
    t = (step + 1) * s.dt;
    if (viscous) {
      const auto d0 = Clock::now();
      if (s.diffusion == "vrm") {
        inserted += vrm_diffuse(particles, nu, s.dt, vrm).inserted;
      } else {
        pse_diffuse(particles, nu, s.dt, pse);
      }
      removed += control_particles(particles, control).removed;
      diffusion_seconds += std::chrono::duration<double>(Clock::now() - d0).count();
    } else if (parser.given("--merge-distance") || s.max_particles > 0) {
      removed += control_particles(particles, control).removed;
    }
    const auto now = Clock::now();
    if (!s.quiet && s.progress > 0 &&
        (std::chrono::duration<double>(now - last_progress).count() >= s.progress ||
         step + 1 == s.steps)) {
      last_progress = now;
      const double elapsed = std::chrono::duration<double>(now - start).count();
      std::printf("  step %5d/%d  t %.4f  N %7zu  Z %.5f  %.3f s/step  (%.0f s)\n", step + 1,
                  s.steps, t, particles.size(), positions.back(), elapsed / (step + 1), elapsed);
      std::fflush(stdout);
    }
  }
  record(s.steps, t, particles, integrator.evaluate(particles));
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();

  // Speed: least-squares slope of the position after the start-up part, against the theory's
  // average over the same interval.
  const std::size_t first_fit =
      std::min(times.size() - 2, static_cast<std::size_t>(std::lround(s.skip * s.steps)));
  const std::vector<double> fit_t(times.begin() + first_fit, times.end());
  const std::vector<double> fit_z(positions.begin() + first_fit, positions.end());
  const double measured = fitted_slope(fit_t, fit_z);
  double expected = std::numeric_limits<double>::quiet_NaN();
  if (have_theory)
    expected =
        (theory_positions.back() - theory_positions[first_fit]) / (fit_t.back() - fit_t.front());
  const double rel_err = std::abs(measured - expected) / std::abs(expected);
  const auto windows =
      window_speeds(times, positions, have_theory ? theory_positions : std::vector<double>{},
                    first_fit, s.windows);
  double max_window_err = 0;
  {
    std::ofstream out(folder + "/speeds.csv");
    out << "t,measured,theory\n";
    for (const Window& w : windows) {
      out << w.t_mid << ',' << w.measured << ',' << w.theory << '\n';
      if (have_theory)
        max_window_err = std::max(max_window_err, std::abs(w.measured / w.theory - 1));
    }
  }
  int passages = 0;
  for (std::size_t k = 1; k < pair_positions.size(); ++k) {
    const double a = pair_positions[k - 1][0] - pair_positions[k - 1][1];
    const double b = pair_positions[k][0] - pair_positions[k][1];
    if ((a > 0) != (b > 0)) ++passages;
  }

  std::printf("vortex-ring: %d steps, t = %.4g, %zu particles at the end, %.1f s (%.3f s/step",
              s.steps, t, particles.size(), seconds, seconds / s.steps);
  if (viscous)
    std::printf(", diffusion %.1f s, %zu inserted, %zu removed", diffusion_seconds, inserted,
                removed);
  std::printf(")\n");
  if (have_theory) {
    std::printf("  speed: measured %.6f, %s %.6f, relative error %.3e\n", measured,
                viscous ? "Saffman" : "thin-ring theory", expected, rel_err);
    std::printf("  speed over %zu windows: largest relative error %.3e\n", windows.size(),
                max_window_err);
    if (!s.quiet)
      for (const Window& w : windows)
        std::printf("    t %.4f  measured %.6f  theory %.6f  (%+.3f%%)\n", w.t_mid, w.measured,
                    w.theory, 100 * (w.measured / w.theory - 1));
  } else {
    std::printf("  pair speed %.6f; passages of one ring through the other: %d\n", measured,
                passages);
  }
  std::printf("  linear impulse drift %.3e, circulation drift %.3e (largest over the run)\n",
              max_impulse_drift, max_circulation_drift);

  if (!s.no_plot) {
    ring_app::PlotFiles plot;
    plot.folder = folder;
    plot.diagnostics = "diagnostics.csv";
    plot.speeds = "speeds.csv";
    plot.png = "ring.png";
    plot.two_rings = s.second_ring;
    plot.have_theory = have_theory;
    char title[256];
    if (s.second_ring)
      std::snprintf(title, sizeof title, "Two coaxial rings (leapfrogging), N = %zu, %s",
                    particles.size(),
                    viscous ? ("Re " + json_number(s.circulation / nu)).c_str() : "inviscid");
    else
      std::snprintf(title, sizeof title, "Vortex ring, %s, N = %zu: speed error %.2f%%",
                    viscous ? ("Re " + json_number(s.circulation / nu) + " (Saffman)").c_str()
                            : "inviscid (thin-ring theory)",
                    particles.size(), 100 * rel_err);
    plot.title = title;
    if (ring_app::plot_ring(plot) && !s.quiet) std::printf("  plot: %s/ring.png\n", folder.c_str());
  }

  if (!s.json.empty()) {
    AtomicFile out(s.json);
    out.write("{\"steps\": " + std::to_string(s.steps) + ", \"n_final\": " +
              std::to_string(particles.size()) + ", \"speed_measured\": " + json_number(measured) +
              ", \"speed_theory\": " + json_number(expected) + ", \"speed_rel_err\": " +
              json_number(rel_err) + ", \"impulse_rel_drift\": " + json_number(max_impulse_drift) +
              ", \"circulation_rel_drift\": " + json_number(max_circulation_drift) +
              ", \"seconds\": " + json_number(seconds) + "}\n");
    out.commit();
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return vortex::cli::run_app("vortex-ring", argc, argv, ring_main);
}
