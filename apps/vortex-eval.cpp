// vortex-eval: the velocity (and gradient) of the vortex particles in a file, at the particles or
// at other points, written as CSV or VTK PolyData.

#include <chrono>
#include <cstdio>
#include <string>

#include "app_main.hpp"
#include "cli.hpp"
#include "particle_files.hpp"
#include "solver_cli.hpp"
#include "vortex/solver.hpp"

namespace {

int eval_main(int argc, char** argv) {
  using namespace vortex;
  std::string sources_path, targets_path, output_path;
  bool gradient = false, force = false;
  cli::SolverCli solver_cli;

  cli::OptionParser parser(
      "vortex-eval", "[options] SOURCES -o OUTPUT",
      "Computes the velocity induced by the vortex particles in SOURCES (and, with --gradient, "
      "its\n"
      "gradient) at the particles themselves or at the points of --targets, and writes OUTPUT.\n"
      "Files are chosen by extension: .csv (header x,y,z,Gx,Gy,Gz,sigma for particles, x,y,z for\n"
      "targets) or .vtp (VTK PolyData with point arrays circulation and radius). A .csv output "
      "has\n"
      "the columns x,y,z,ux,uy,uz and, with --gradient, dux_dx,...,duz_dz (du_a/dx_b), one row\n"
      "per target in input order; a .vtp output has velocity, velocity_gradient and vorticity.");
  parser.add_positional("SOURCES", "particle file (.csv or .vtp)", sources_path, true);
  parser.add("-o,--output", "FILE", "result file, .csv or .vtp (required)", output_path, "-");
  parser.add("--targets", "FILE",
             "evaluate at these points (.csv or .vtp) instead of at the particles", targets_path);
  parser.add_flag("--gradient", "also compute the velocity gradient", gradient);
  parser.add_flag("--force", "allow OUTPUT to replace SOURCES or the --targets file", force);
  solver_cli.add_to(parser);
  if (!parser.parse(argc, argv)) return 0;
  if (output_path.empty()) throw cli::UsageError("missing -o OUTPUT (see --help)");

  // Check everything that can be checked before the computation, the output first.
  cli::check_output(output_path, {sources_path, targets_path}, force);
  const SolverOptions options = solver_cli.options();
  const ParticleSet sources = cli::read_sources(sources_path);
  Points targets;
  const bool separate_targets = !targets_path.empty();
  if (separate_targets) targets = cli::read_targets(targets_path);
  const PointsView target_view = separate_targets ? PointsView(targets) : PointsView(sources);

  Solver solver(options);
  const auto start = std::chrono::steady_clock::now();
  const VelocityField field = separate_targets ? solver.evaluate(sources, targets, gradient)
                                               : solver.evaluate(sources, gradient);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  cli::write_results(output_path, separate_targets ? nullptr : &sources, target_view, field);
  const double total = field.stats.times.total > 0 ? field.stats.times.total : seconds;
  std::fprintf(stderr,
               "vortex-eval: %zu sources -> %zu targets, method %s, backend %s (%s), %s, "
               "total %.4g s, wrote %s\n",
               sources.size(), target_view.size(), to_string(options.method).c_str(),
               field.stats.backend.c_str(), field.stats.precision.c_str(),
               gradient ? "velocity+gradient" : "velocity", total, output_path.c_str());
  const std::string tree = cli::describe_tree_choice(field.stats);
  if (!tree.empty()) std::fprintf(stderr, "vortex-eval: tree options %s\n", tree.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return vortex::cli::run_app("vortex-eval", argc, argv, eval_main);
}
