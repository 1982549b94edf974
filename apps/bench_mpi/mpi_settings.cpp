#include "mpi_settings.hpp"

#include "cli.hpp"
#include "solver_cli.hpp"

namespace vortex::cli {

bool parse_mpi_bench(int argc, char** argv, int ranks, MpiBenchSettings& s) {
  SolverCli solver_cli;
  OptionParser parser(
      "vortex-bench-mpi", "[options]",
      "Times the distributed solver (vortex::mpi) on a generated case: run it under mpiexec, one\n"
      "rank a GPU (or a set of CPU threads). Every rank generates the case and keeps its share;\n"
      "after a warm-up call, --repeat calls are timed, each stage on every rank. Rank 0 prints\n"
      "the medians (the slowest rank's and the mean over ranks) and writes --json.");
  parser.add("--case", "cube|plummer|sheet|two-scale|ellipsoid", "particle case", s.case_name);
  parser.add("--n", "N", "particles on all ranks together (strong scaling)", s.n);
  parser.add("--per-rank", "N", "particles a rank instead (weak scaling: N x ranks in all)",
             s.per_rank);
  parser.add("--deal", "slabs|scattered|tree",
             "how the particles start: in slabs along x, scattered over the ranks at random, or "
             "in the ranges of the tree that the solver gives each rank (repartition, as a time "
             "loop keeps them)",
             s.deal);
  parser.add("--repeat", "R", "timed calls after the warm-up", s.repeat);
  parser.add("--seed", "S", "seed of the case", s.seed);
  parser.add("--sample", "K", "check K targets against the direct sum (rank 0 sums them)",
             s.sample);
  parser.add_flag("--velocity-only", "the velocity without its gradient", s.velocity_only);
  parser.add_flag("--baseline",
                  "also time the one-rank Solver on the whole set, on rank 0 after the ranks' "
                  "calls (its own tree build: on the device with a GPU)",
                  s.baseline);
  parser.add("--json", "FILE", "write the results as JSON (rank 0)", s.json_path);
  solver_cli.add_to(parser);
  if (!parser.parse(argc, argv)) return false;
  if (s.repeat < 1) throw UsageError("--repeat must be at least 1");
  if (s.deal != "slabs" && s.deal != "scattered" && s.deal != "tree")
    throw UsageError("--deal: '" + s.deal + "' (accepted: slabs, scattered, tree)");
  if (parser.given("--per-rank")) {
    if (parser.given("--n")) throw UsageError("give --n or --per-rank, not both");
    s.n = s.per_rank * static_cast<std::uint64_t>(ranks);
  }
  if (s.n == 0) throw UsageError("--n must be at least 1");
  s.solver = solver_cli.options();
  return true;
}

}  // namespace vortex::cli
