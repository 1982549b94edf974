// vortex-bench-mpi: the distributed solver's strong and weak scaling, run under mpiexec. A
// generated case dealt to the ranks, timed per stage over repeated calls; rank 0 prints the
// medians and writes them as JSON.

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app_main.hpp"
#include "cli.hpp"
#include "json_writer.hpp"
#include "mpi_report.hpp"
#include "mpi_settings.hpp"
#include "particle_cases.hpp"
#include "vortex/error_metrics.hpp"
#include "vortex/file_io.hpp"
#include "vortex/mpi/distributed_solver.hpp"
#include "vortex/solver.hpp"

namespace {

using namespace vortex;

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// The indices of the generated set that this rank starts with.
std::vector<std::size_t> my_indices(const ParticleSet& all, const std::string& deal) {
  const std::size_t n = all.size();
  const int ranks = world_size(), me = world_rank();
  std::vector<std::size_t> mine;
  if (deal == "scattered") {
    for (std::size_t i = 0; i < n; ++i)
      if (static_cast<int>((i * 2654435761u + 12345u) % ranks) == me) mine.push_back(i);
    return mine;
  }
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return all.x[a] < all.x[b] || (all.x[a] == all.x[b] && a < b);
  });
  const std::size_t lo = n * me / ranks, hi = n * (me + 1) / ranks;
  mine.assign(order.begin() + lo, order.begin() + hi);
  std::sort(mine.begin(), mine.end());
  return mine;
}

// The median total of the one-rank Solver on the whole set, after a warm-up, into one field kept
// between its calls.
double baseline_total(const ParticleSet& all, const cli::MpiBenchSettings& s, bool gradient) {
  Solver solver(s.solver);
  VelocityField field;
  solver.evaluate(all, gradient, field);
  std::vector<double> totals;
  for (int r = 0; r < s.repeat; ++r) {
    const double start = MPI_Wtime();
    solver.evaluate(all, gradient, field);
    totals.push_back(MPI_Wtime() - start);
  }
  std::sort(totals.begin(), totals.end());
  return totals[totals.size() / 2];
}

int bench_main(int argc, char** argv) {
  cli::MpiBenchSettings s;
  if (!cli::parse_mpi_bench(argc, argv, world_size(), s)) return 0;
  // The JSON file's folder must be writable before the run, on rank 0, which writes it.
  int writable = 1;
  std::string why;
  if (world_rank() == 0 && !s.json_path.empty()) try {
      AtomicFile probe(s.json_path);
    } catch (const FileError& e) {
      writable = 0;
      why = e.what();
    }
  MPI_Bcast(&writable, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!writable) throw cli::UsageError(world_rank() == 0 ? why : "--json: rank 0 cannot write it");
  const bool gradient = !s.velocity_only;
  const ParticleSet all = cli::make_case(s.case_name, s.n, s.seed);
  const std::vector<std::size_t> idx = my_indices(all, s.deal);
  ParticleSet mine;
  mine.reserve(idx.size());
  for (const std::size_t i : idx)
    mine.push_back(all.x[i], all.y[i], all.z[i], all.gx[i], all.gy[i], all.gz[i], all.sigma[i]);

  mpi::DistributedSolver solver(MPI_COMM_WORLD, s.solver);
  if (s.deal == "tree") solver.repartition(mine);  // as a time loop keeps its particles
  VelocityField field;
  solver.evaluate(SourcesView(mine), PointsView(mine), gradient, field);  // warm-up
  std::vector<mpi::DistributedStats> calls;
  for (int r = 0; r < s.repeat; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    solver.evaluate(SourcesView(mine), PointsView(mine), gradient, field);
    calls.push_back(solver.stats());
  }

  cli::MpiErrors errors;
  if (s.sample > 0) errors = cli::check_against_direct(all, mine, field, s, gradient);
  if (world_rank() != 0) return 0;
  cli::MpiBenchResult result = cli::summarize(calls, s, world_size(), all.size());
  result.errors = errors;
  if (s.baseline) result.baseline = baseline_total(all, s, gradient);
  std::fputs(cli::report_text(result).c_str(), stdout);
  if (!s.json_path.empty()) {
    AtomicFile file(s.json_path);
    file.write(cli::report_json(result));
    file.commit();
    std::printf("vortex-bench-mpi: wrote %s\n", s.json_path.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int status = vortex::cli::run_app("vortex-bench-mpi", argc, argv, bench_main);
  MPI_Finalize();
  return status;
}
