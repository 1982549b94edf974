#pragma once
// The Solver over the ranks of an MPI communicator, one GPU (or a set of CPU threads) a rank:
//
//   vortex::mpi::DistributedSolver solver(MPI_COMM_WORLD, options);
//   vortex::VelocityField f = solver.evaluate(my_particles, /*gradient=*/true);
//
// Every call is collective: each rank passes its own sources and targets (a rank may have none of
// either) and gets the field at its own targets, in its own order. What is summed is what one
// Solver with the same options would sum of all ranks' sources at all ranks' targets: the same
// options picked for the whole set, the same k-d trees (split over the ranks along their tree
// order), the same interaction lists, the same kernels; results agree with the one-rank call to
// rounding. Each rank evaluates its share of the targets with the locally essential tree of
// sources it received from the others (docs/methods/distributed.md).
//
// On a communicator of one rank it is that Solver, with no cost of its own.
//
// Errors are collective too: bad input on one rank, options that differ between ranks, or a
// failure in one rank's sums make every rank throw (the failing rank's error, naming the rank),
// rather than leave the others waiting.

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "vortex/field.hpp"
#include "vortex/options.hpp"
#include "vortex/particles.hpp"

namespace vortex::mpi {

// Seconds of one call's stages on one rank.
struct DistributedTimes {
  double agree = 0;      // options, units and the layout agreed over the ranks
  double partition = 0;  // both trees: the cuts across ranks, the points' moves, the subtrees
  double upward = 0;     // multipoles of the rank's subtrees and of the top
  double exchange = 0;   // locally essential trees: sent, received, assembled
  double lists = 0;      // interaction lists of the rank's targets
  double sums = 0;       // the backend's near and far fields
  double results = 0;    // results back to the ranks that own the targets
  double total = 0;
};

struct DistributedStats {
  EvaluationStats local;     // this rank's sums, as the Solver reports them
  DistributedTimes times;    // this rank
  DistributedTimes slowest;  // the largest of each stage over the ranks
  DistributedTimes mean;     // the mean of each stage over the ranks
  int ranks = 1;
  std::uint64_t total_sources = 0, total_targets = 0;
  std::uint64_t sources = 0, targets = 0;  // this rank's share after the split
  // This rank's sources and targets that the split sent to other ranks.
  std::uint64_t sources_moved = 0, targets_moved = 0;
  // The locally essential tree: nodes and particles this rank sent to and received from the others.
  std::uint64_t nodes_sent = 0, particles_sent = 0;
  std::uint64_t nodes_received = 0, particles_received = 0;
};

class DistributedSolver {
 public:
  // Throws std::logic_error when MPI is not initialized, std::invalid_argument for bad options
  // (as the Solver) or a null communicator. Not collective.
  explicit DistributedSolver(MPI_Comm comm, SolverOptions options = {});
  ~DistributedSolver();
  DistributedSolver(DistributedSolver&&) noexcept;
  DistributedSolver& operator=(DistributedSolver&&) noexcept;

  const SolverOptions& options() const { return options_; }
  MPI_Comm communicator() const { return comm_; }

  // Velocity of all ranks' particles at this rank's particles (self term excluded).
  VelocityField evaluate(const ParticleSet& particles, bool gradient);
  // Velocity of all ranks' sources at this rank's targets.
  VelocityField evaluate(const ParticleSet& sources, PointsView targets, bool gradient);
  // The same into `out`, reusing its storage. On error `out` is left empty.
  void evaluate(SourcesView sources, PointsView targets, bool gradient, VelocityField& out);

  // Moves this rank's particles so that each rank holds the range of the source tree's order that
  // an evaluation gives it: between the steps of a time loop, a rank's particles then stay mostly
  // its own, and the next evaluations move few. Collective; each rank's set is replaced (in tree
  // order, every value exactly as it was). The options must agree as for evaluate.
  void repartition(ParticleSet& particles);

  // The last call's stages, counts and their spread over the ranks.
  const DistributedStats& stats() const { return stats_; }

 private:
  void evaluate_into(SourcesView sources, PointsView targets, bool gradient,
                     const SolverOptions& asked, VelocityField& out);
  void evaluate_alone(SourcesView sources, PointsView targets, bool gradient, VelocityField& out);

  struct State;
  MPI_Comm comm_;
  SolverOptions options_;
  DistributedStats stats_;
  std::unique_ptr<State> state_;
};

}  // namespace vortex::mpi
