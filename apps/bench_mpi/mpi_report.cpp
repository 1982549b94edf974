#include "mpi_report.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>

#include "json_writer.hpp"
#include "solver_cli.hpp"

namespace vortex::cli {

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

constexpr int kStages = 8;
const char* const kStageNames[kStages] = {"agree", "partition", "upward",  "exchange",
                                          "lists", "sums",      "results", "total"};

double& stage(mpi::DistributedTimes& t, int k) {
  double* all[kStages] = {&t.agree, &t.partition, &t.upward,  &t.exchange,
                          &t.lists, &t.sums,      &t.results, &t.total};
  return *all[k];
}

}  // namespace

MpiErrors check_against_direct(const ParticleSet& all, const ParticleSet& mine,
                               const VelocityField& field, const MpiBenchSettings& s,
                               bool gradient) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Every stride-th particle of each rank's own: about `sample` in all.
  const std::size_t stride = std::max<std::size_t>(1, all.size() / s.sample);
  const int nc = gradient ? 12 : 3;
  std::vector<double> found;  // (x, y, z, values) of each sampled particle
  for (std::size_t k = 0; k < mine.size(); k += stride) {
    found.insert(found.end(), {mine.x[k], mine.y[k], mine.z[k]});
    for (int c = 0; c < nc; ++c) found.push_back(c < 3 ? field.u[c][k] : field.du[c - 3][k]);
  }
  int count = static_cast<int>(found.size());
  std::vector<int> counts(ranks), displs(ranks, 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int r = 1; r < ranks; ++r) displs[r] = displs[r - 1] + counts[r - 1];
  std::vector<double> gathered(rank == 0 ? displs[ranks - 1] + counts[ranks - 1] : 0);
  MPI_Gatherv(found.data(), count, MPI_DOUBLE, gathered.data(), counts.data(), displs.data(),
              MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MpiErrors e;
  if (rank != 0) return e;
  const std::size_t width = 3 + nc, m = gathered.size() / width;
  Points targets;
  VelocityField approx;
  approx.resize(m, gradient);
  for (std::size_t k = 0; k < m; ++k) {
    const double* row = gathered.data() + k * width;
    targets.push_back(row[0], row[1], row[2]);
    for (int c = 0; c < nc; ++c) (c < 3 ? approx.u[c][k] : approx.du[c - 3][k]) = row[3 + c];
  }
  const double start = MPI_Wtime();
  const VelocityField reference =
      reference_field(all, PointsView(targets), gradient, s.solver.core, s.solver.threads);
  e.seconds = MPI_Wtime() - start;
  e.errors = compare_fields(approx, reference);
  e.checked = true;
  return e;
}

MpiBenchResult summarize(const std::vector<mpi::DistributedStats>& calls, const MpiBenchSettings& s,
                         int ranks, std::size_t n) {
  MpiBenchResult r;
  r.settings = s;
  r.ranks = ranks;
  r.n = n;
  r.last = calls.back();
  for (int k = 0; k < kStages; ++k) {
    std::vector<double> slowest, mean;
    for (mpi::DistributedStats c : calls) {
      slowest.push_back(stage(c.slowest, k));
      mean.push_back(stage(c.mean, k));
    }
    stage(r.slowest, k) = median(slowest);
    stage(r.mean, k) = median(mean);
  }
  std::vector<double> imbalance;
  for (const mpi::DistributedStats& c : calls) {
    r.totals.push_back(c.slowest.total);
    imbalance.push_back(c.mean.sums > 0 ? c.slowest.sums / c.mean.sums : 1.0);
  }
  r.imbalance = median(imbalance);
  return r;
}

std::string report_text(const MpiBenchResult& r) {
  std::string text;
  char line[256];
  std::snprintf(
      line, sizeof line, "vortex-bench-mpi: %s, %zu particles on %d ranks (%s), %s, %s %s, %s\n",
      r.settings.case_name.c_str(), r.n, r.ranks, r.settings.deal.c_str(),
      r.settings.velocity_only ? "velocity" : "velocity+gradient", r.last.local.backend.c_str(),
      r.last.local.precision.c_str(), describe_tree_choice(r.last.local).c_str());
  text += line;
  std::snprintf(line, sizeof line, "  %-10s %12s %12s   (medians of %zu calls, seconds)\n", "stage",
                "slowest", "mean", r.totals.size());
  text += line;
  for (int k = 0; k < kStages; ++k) {
    mpi::DistributedTimes slowest = r.slowest, mean = r.mean;
    std::snprintf(line, sizeof line, "  %-10s %12.5f %12.5f\n", kStageNames[k], stage(slowest, k),
                  stage(mean, k));
    text += line;
  }
  std::snprintf(line, sizeof line,
                "  sums' imbalance (slowest / mean) %.3f; locally essential trees: %llu nodes, "
                "%llu particles to rank 0\n",
                r.imbalance, static_cast<unsigned long long>(r.last.nodes_received),
                static_cast<unsigned long long>(r.last.particles_received));
  text += line;
  if (r.baseline > 0) {
    std::snprintf(line, sizeof line,
                  "  the one-rank Solver on the whole set: %.5f s (median); the ranks' total is "
                  "%.3g times it\n",
                  r.baseline, r.slowest.total / r.baseline);
    text += line;
  }
  if (r.errors.checked) {
    std::snprintf(line, sizeof line,
                  "  errors against the direct sum at %zu particles: velocity %.3g, gradient %.3g "
                  "(mean relative)\n",
                  r.errors.errors.n_sampled, r.errors.errors.velocity_mean_rel,
                  r.errors.errors.gradient_mean_rel);
    text += line;
  }
  return text;
}

std::string report_json(const MpiBenchResult& r) {
  JsonWriter j;
  j.begin_object();
  j.field("case", r.settings.case_name).field("particles", static_cast<std::uint64_t>(r.n));
  j.field("ranks", r.ranks).field("deal", r.settings.deal);
  j.field("gradient", !r.settings.velocity_only);
  j.field("backend", r.last.local.backend).field("precision", r.last.local.precision);
  j.field("device", r.last.local.device);
  j.field("tree", describe_tree_options(r.last.local.tree));
  for (const char* which : {"slowest", "mean"}) {
    mpi::DistributedTimes t = std::string(which) == "slowest" ? r.slowest : r.mean;
    j.key(which).begin_object(true);
    for (int k = 0; k < kStages; ++k) j.field(kStageNames[k], stage(t, k));
    j.end();
  }
  j.field("imbalance", r.imbalance);
  if (r.baseline > 0) j.field("one_rank_solver_total", r.baseline);
  j.key("totals").begin_array(true);
  for (const double t : r.totals) j.value(t);
  j.end();
  j.field("let_nodes_received_rank0", static_cast<std::uint64_t>(r.last.nodes_received));
  j.field("let_particles_received_rank0", static_cast<std::uint64_t>(r.last.particles_received));
  if (r.errors.checked) {
    j.key("errors").begin_object(true);
    j.field("sampled", static_cast<std::uint64_t>(r.errors.errors.n_sampled));
    j.field("velocity_mean_rel", r.errors.errors.velocity_mean_rel);
    j.field("gradient_mean_rel", r.errors.errors.gradient_mean_rel);
    j.end();
  }
  j.end();
  return j.str() + "\n";
}

}  // namespace vortex::cli
