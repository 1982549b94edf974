// The distributed Solver's front-end: agrees on the options and the units, builds both trees over
// the ranks, exchanges the locally essential trees, lets the rank's backend sum its targets and
// sends the results back to the ranks that own the targets.

#include "vortex/mpi/distributed_solver.hpp"

#include <omp.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>

#include "backend/backend.hpp"
#include "backend/cpu_stages.hpp"
#include "comm/collectives.hpp"
#include "exchange/let.hpp"
#include "far/top_local_expansions.hpp"
#include "partition/distributed_tree.hpp"
#include "partition/sums_work.hpp"
#include "solver/global_facts.hpp"
#include "solver/options_agreement.hpp"
#include "solver/results_return.hpp"
#include "solver/thread_scope.hpp"
#include "upward/distributed_upward.hpp"
#include "vortex/out_of_memory.hpp"
#include "vortex/solver.hpp"

namespace vortex::mpi {

namespace {

using Clock = std::chrono::steady_clock;
namespace vd = vortex::detail;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Each stage's largest and mean time over the ranks.
void spread(const detail::Comm& comm, DistributedStats& stats) {
  constexpr int kStages = 8;
  static_assert(sizeof(DistributedTimes) == kStages * sizeof(double));
  double most[kStages], sum[kStages];
  std::memcpy(most, &stats.times, sizeof most);
  std::memcpy(sum, &stats.times, sizeof sum);
  comm.allreduce(most, kStages, MPI_MAX);
  comm.allreduce(sum, kStages, MPI_SUM);
  for (double& s : sum) s /= comm.size();
  std::memcpy(&stats.slowest, most, sizeof most);
  std::memcpy(&stats.mean, sum, sizeof sum);
}

}  // namespace

struct DistributedSolver::State {
  explicit State(MPI_Comm c) : comm(c) {}
  detail::Comm comm;
  std::unique_ptr<vd::Backend> cpu;
  std::unique_ptr<vd::DeviceBackend> cuda;
  detail::DistributedTree sources, targets;
  detail::DistributedMultipoles multipoles;
  ParticleSet local_sources;
  std::vector<long long> source_keys;   // global key of each node of plan.source_tree
  std::vector<detail::Record> records;  // this call's points before they move
  std::vector<double> target_shares;    // where the next call's ranks start in the target tree
  std::unique_ptr<Solver> alone;        // the one-rank communicator's Solver
  detail::ResultBuffers results;
  vd::TreePlan plan;
  ParticleSet all_sources;  // the direct method's copy of every rank's sources
  Points direct_targets;

  // This rank's place among the ranks of its node.
  int node_rank() const {
    MPI_Comm node;
    detail::check(
        MPI_Comm_split_type(comm.get(), MPI_COMM_TYPE_SHARED, comm.rank(), MPI_INFO_NULL, &node),
        "MPI_Comm_split_type");
    int rank = 0;
    MPI_Comm_rank(node, &rank);
    MPI_Comm_free(&node);
    return rank;
  }

  vd::Backend& backend(Backend b) {
    if (b == Backend::Cuda) {
      if (!cuda) {
        // One GPU a rank: the ranks of a node take its GPUs in turn.
        vd::use_cuda_device(node_rank());
        cuda = vd::make_cuda_backend();
      }
      return *cuda;
    }
    if (!cpu) cpu = vd::make_cpu_backend();
    return *cpu;
  }
};

DistributedSolver::DistributedSolver(MPI_Comm comm, SolverOptions options)
    : comm_(comm), options_(options) {
  validate_options(options_);
  state_ = std::make_unique<State>(comm);
}
DistributedSolver::~DistributedSolver() = default;
DistributedSolver::DistributedSolver(DistributedSolver&&) noexcept = default;
DistributedSolver& DistributedSolver::operator=(DistributedSolver&&) noexcept = default;

VelocityField DistributedSolver::evaluate(const ParticleSet& particles, bool gradient) {
  return evaluate(particles, PointsView(particles), gradient);
}

VelocityField DistributedSolver::evaluate(const ParticleSet& sources, PointsView targets,
                                          bool gradient) {
  VelocityField out;
  SourcesView view;
  detail::together(state_->comm, [&] { view = SourcesView(sources); });
  evaluate(view, targets, gradient, out);
  return out;
}

void DistributedSolver::evaluate(SourcesView sources, PointsView targets, bool gradient,
                                 VelocityField& out) {
  if (!state_)
    throw std::logic_error("vortex::mpi::DistributedSolver: used after it was moved from");
  const detail::Comm& comm = state_->comm;
  if (comm.size() == 1) {
    // One rank: the one-rank Solver itself (its trees on the device where it has a GPU).
    evaluate_alone(sources, targets, gradient, out);
    return;
  }
  try {
    out.stats = EvaluationStats{};
    detail::together(comm, [&] { validate_inputs(sources, targets); });
    detail::agree_on_options(comm, options_);
    evaluate_into(sources, targets, gradient, options_, out);
    // Float may not hold a field that double holds: the whole call again in double, on every rank.
    const bool bad = comm.max(static_cast<int>(!detail::all_finite(out))) != 0;
    if (!bad) return;
    if (out.stats.precision == std::string("float")) {
      SolverOptions in_double = options_;
      in_double.precision = Precision::Double;
      evaluate_into(sources, targets, gradient, in_double, out);
    }
    detail::together(comm, [&] { detail::throw_if_not_finite(out); });
  } catch (...) {
    out = VelocityField{};
    throw;
  }
}

void DistributedSolver::repartition(ParticleSet& particles) {
  if (!state_)
    throw std::logic_error("vortex::mpi::DistributedSolver: used after it was moved from");
  State& s = *state_;
  const detail::Comm& comm = s.comm;
  SourcesView view;
  detail::together(comm, [&] {
    view = SourcesView(particles);
    validate_sources(view);
  });
  detail::agree_on_options(comm, options_);
  if (comm.size() == 1) return;
  detail::GlobalFacts g;
  detail::lockstep(comm, "the facts of the whole set",
                   [&] { g = detail::global_facts(comm, view, PointsView(particles)); });
  if (g.sources == 0) return;
  if (g.sources > INT_MAX)
    throw std::invalid_argument("vortex::mpi: more than 2^31 - 1 particles on all ranks");
  Backend backend = Backend::Cpu;
  detail::together(comm, [&] { backend = resolve_backend(options_.backend); });
  detail::agree_on_backend(comm, backend);
  const vd::ResolvedOptions options = vd::resolve_options(options_, backend, g.facts);
  const vd::Units units = g.facts.given_units;
  detail::source_records(view, units, comm.rank(), s.records);
  detail::lockstep(comm, "the source tree's build", [&] {
    detail::build_distributed_tree(comm, s.records, options.tree.source_bucket, options.tree.arity,
                                   true, {}, s.sources);
  });
  // Back to the caller's units: the factors are powers of two, so every value is as it was.
  detail::particles_of(s.sources.records, particles, 1 / units.length_factor(),
                       1 / units.strength_factor());
}

void DistributedSolver::evaluate_alone(SourcesView sources, PointsView targets, bool gradient,
                                       VelocityField& out) {
  State& s = *state_;
  if (!s.alone) s.alone = std::make_unique<Solver>(options_);
  const auto start = Clock::now();
  stats_ = DistributedStats{};
  s.alone->evaluate(sources, targets, gradient, out);
  stats_.local = out.stats;
  stats_.times.sums = out.stats.times.total;
  stats_.times.total = seconds_since(start);
  stats_.slowest = stats_.mean = stats_.times;
  stats_.total_sources = stats_.sources = sources.size();
  stats_.total_targets = stats_.targets = targets.size();
}

void DistributedSolver::evaluate_into(SourcesView sources, PointsView targets, bool gradient,
                                      const SolverOptions& asked, VelocityField& out) {
  State& s = *state_;
  const detail::Comm& comm = s.comm;
  const auto start = Clock::now();
  stats_ = DistributedStats{};
  stats_.ranks = comm.size();
  DistributedTimes& times = stats_.times;

  auto stage = Clock::now();
  detail::GlobalFacts g;
  detail::lockstep(comm, "the facts of the whole set",
                   [&] { g = detail::global_facts(comm, sources, targets); });
  if (g.sources == 0)
    throw std::invalid_argument("vortex::mpi: no source particles on any rank (N = 0)");
  if (g.targets == 0) throw std::invalid_argument("vortex::mpi: no target points on any rank");
  if (g.sources > INT_MAX || g.targets > INT_MAX)
    throw std::invalid_argument("vortex::mpi: more than 2^31 - 1 sources or targets on all ranks");
  stats_.total_sources = static_cast<std::uint64_t>(g.sources);
  stats_.total_targets = static_cast<std::uint64_t>(g.targets);
  Backend backend_kind = Backend::Cpu;
  detail::together(comm, [&] { backend_kind = resolve_backend(asked.backend); });
  detail::agree_on_backend(comm, backend_kind);
  const vd::ResolvedOptions options = vd::resolve_options(asked, backend_kind, g.facts);
  const vd::ThreadScope threads(options.threads);
  const vd::Units units = g.facts.given_units;
  vd::Backend* backend = nullptr;
  detail::together(comm, [&] { backend = &s.backend(options.backend); });
  times.agree = seconds_since(stage);
  EvaluationStats& local = stats_.local;

  if (options.method == Method::Direct) {
    // Every rank sums all sources at its own targets.
    stage = Clock::now();
    detail::source_records(sources, units, comm.rank(), s.records);
    detail::particles_of(comm.allgatherv(s.records), s.all_sources);
    detail::scaled_points(targets, units, s.direct_targets);
    times.exchange = seconds_since(stage);
    vd::ComponentView v;
    detail::together(comm, [&] {
      stage = Clock::now();
      v = backend->direct_sum(SourcesView(s.all_sources), PointsView(s.direct_targets), options,
                              gradient, local);
      times.sums = seconds_since(stage);
    });
    stage = Clock::now();
    detail::write_results(v, nullptr, targets.size(), gradient, units, out);
    times.results = seconds_since(stage);
    local.pair_interactions = static_cast<std::uint64_t>(g.sources) * targets.size();
    stats_.sources = s.all_sources.size();
    stats_.targets = targets.size();
  } else {
    stage = Clock::now();
    std::vector<detail::Record>& records = s.records;
    detail::source_records(sources, units, comm.rank(), records);
    detail::lockstep(comm, "the source tree's build", [&] {
      detail::build_distributed_tree(comm, records, options.tree.source_bucket, options.tree.arity,
                                     true, {}, s.sources);
    });
    detail::target_records(targets, units, comm.rank(), records);
    detail::lockstep(comm, "the target tree's build", [&] {
      detail::build_distributed_tree(comm, records, options.tree.target_bucket, options.tree.arity,
                                     false, s.target_shares, s.targets);
    });
    times.partition = seconds_since(stage);
    stats_.sources = s.sources.records.size();
    stats_.sources_moved = static_cast<std::uint64_t>(s.sources.moved);
    stats_.targets_moved = static_cast<std::uint64_t>(s.targets.moved);
    stats_.targets = s.targets.records.size();

    stage = Clock::now();
    detail::particles_of(s.sources.records, s.local_sources);
    detail::lockstep(comm, "the upward pass", [&] {
      detail::distributed_upward(comm, s.sources, s.local_sources, options.tree.order,
                                 s.multipoles);
    });
    times.upward = seconds_since(stage);

    stage = Clock::now();
    vd::TreePlan& plan = s.plan;
    const AcceptanceCriteria criteria = criteria_with_orders(
        options.tree.theta, options.tree.kappa, options.tree.order, options.tree.uniform_order);
    detail::SourceSide side{&s.sources, &s.local_sources, &s.multipoles.local, &s.multipoles.top,
                            options.tree.order};
    detail::LetCounts counts;
    detail::lockstep(comm, "the exchange of locally essential trees", [&] {
      detail::exchange_let(comm, side, detail::target_boxes(s.targets, 64), criteria,
                           {plan.source_tree, plan.sources, plan.multipoles, s.source_keys},
                           counts);
    });
    stats_.nodes_sent = counts.nodes_sent;
    stats_.particles_sent = counts.particles_sent;
    stats_.nodes_received = counts.nodes_received;
    stats_.particles_received = counts.particles_received;
    times.exchange = seconds_since(stage);

    vd::ComponentView v;
    stage = Clock::now();
    if (!s.targets.records.empty()) {
      plan.order = options.tree.order;
      plan.units = units;
      plan.multipoles_given = true;
      plan.target_tree = s.targets.local;
      detail::points_of(s.targets.records, plan.targets);
      build_interaction_lists(plan.target_tree, plan.source_tree, criteria, plan.lists);
    }
    // The CPU's local expansions at the top of the target tree, chosen as on one rank.
    detail::TopLocalInput top{&s.targets, &s.source_keys, options.tree.theta, FarField::M2P, {}};
    if (options.backend == Backend::Cpu && options.far_field != FarField::M2P) {
      top.mode = options.far_field;
      if (top.mode == FarField::Auto)
        top.costs =
            vd::far_field_costs(options.tree.order, options.arithmetic == vd::Arithmetic::Float
                                                        ? vd::FarArithmetic::Float
                                                        : vd::FarArithmetic::Double);
    }
    detail::together(comm, [&] {
      if (!s.targets.records.empty()) detail::check_let_lists(plan.lists.near_ranges);
    });
    detail::together(comm, [&] { detail::top_local_expansions(comm, top, plan); });
    times.lists = seconds_since(stage);
    // Timed before the agreement, so that the spread over the ranks shows their imbalance.
    detail::together(comm, [&] {
      stage = Clock::now();
      if (!s.targets.records.empty()) {
        vd::count_interactions(plan, local);
        v = backend->tree_sum(plan, options, gradient, local);
      }
      times.sums = seconds_since(stage);
    });
    // The next call's split of the targets: equal shares of the sums' work, by this call's work
    // per target (where the next call has other counts or options, it is only a start).
    s.target_shares = detail::balanced_shares(s.targets.rank_begin,
                                              comm.allgather(detail::sums_work(local, options)));
    stage = Clock::now();
    detail::lockstep(comm, "the results' return", [&] {
      detail::return_results(comm, v, s.targets.records, targets.size(), gradient, units, out,
                             s.results);
    });
    times.results = seconds_since(stage);
    local.tree_build = "host";
  }
  local.tree = options.tree;
  local.tolerance = options.tolerance;
  local.layout = options.layout;
  if (local.precision.empty()) local.precision = vd::to_string(options.arithmetic);
  out.stats = local;
  times.total = seconds_since(start);
  spread(comm, stats_);
}

}  // namespace vortex::mpi
