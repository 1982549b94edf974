// --mpi: a ring run split over the ranks of MPI_COMM_WORLD. Each rank advances its share of the
// particles: the distributed solver evaluates, its repartition keeps each rank's particles
// together before every step, VRM and particle control run on ranks with halos; rank 0 gathers
// the whole set (and its field) to record, print and write.

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <vector>

#include "cli.hpp"
#include "ring_simulation.hpp"
#include "ring_steps.hpp"
#include "vortex/mpi/distributed_solver.hpp"
#include "vortex/mpi/distributed_toolkit.hpp"

namespace vortex::ring_app {

namespace {

class RankSteps final : public RingSteps {
 public:
  explicit RankSteps(const RunPlan& plan)
      : solver_(MPI_COMM_WORLD, plan.solver),
        integrator_(
            [this](const ParticleSet& p, bool gradient, VelocityField& out) {
              solver_.evaluate(SourcesView(p), PointsView(p), gradient, out);
            },
            integrator_options(plan)) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  bool records() const override { return rank_ == 0; }
  // Every rank made the same rings: each takes every size-th particle, the repartition before the
  // first step gathers them.
  ParticleSet share(const ParticleSet& all) override {
    ParticleSet mine;
    for (std::size_t i = static_cast<std::size_t>(rank_); i < all.size(); i += size_)
      mine.push_back(all.x[i], all.y[i], all.z[i], all.gx[i], all.gy[i], all.gz[i], all.sigma[i]);
    return mine;
  }
  void start_step(ParticleSet& particles) override { solver_.repartition(particles); }
  TimeIntegrator& integrator() override { return integrator_; }
  std::size_t diffuse(ParticleSet& p, double nu, double dt, const Diffusion& d) override {
    if (d.pse) {
      mpi::pse_diffuse(MPI_COMM_WORLD, p, nu, dt, d.pse_options);
      return 0;
    }
    return mpi::vrm_diffuse(MPI_COMM_WORLD, p, nu, dt, d.vrm, vrm_).inserted;
  }
  std::size_t control(ParticleSet& p, const ParticleControlOptions& o) override {
    return mpi::control_particles(MPI_COMM_WORLD, p, o, control_).removed;
  }
  void whole(const ParticleSet& mine, const VelocityField& field, const ParticleSet*& all,
             const VelocityField*& all_field) override;
  std::size_t total(std::size_t mine) override {
    unsigned long long n = mine;
    MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return static_cast<std::size_t>(n);
  }

 private:
  // Every rank's `count` values of `mine` into `all` on rank 0, in rank order.
  void gather(const std::vector<double>& mine, std::vector<double>& all);

  mpi::DistributedSolver solver_;
  TimeIntegrator integrator_;
  VrmWorkspace vrm_;
  ParticleControlWorkspace control_;
  int rank_ = 0, size_ = 1;
  std::vector<int> counts_, starts_;
  ParticleSet all_;
  VelocityField all_field_;
};

void RankSteps::gather(const std::vector<double>& mine, std::vector<double>& all) {
  all.resize(rank_ == 0 ? static_cast<std::size_t>(starts_.back()) : 0);
  MPI_Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, all.data(), counts_.data(),
              starts_.data(), MPI_DOUBLE, 0, MPI_COMM_WORLD);
}

void RankSteps::whole(const ParticleSet& mine, const VelocityField& field, const ParticleSet*& all,
                      const VelocityField*& all_field) {
  const int count = static_cast<int>(mine.size());
  counts_.assign(size_, 0);
  starts_.assign(size_ + 1, 0);
  MPI_Gather(&count, 1, MPI_INT, counts_.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int r = 0; r < size_; ++r) starts_[r + 1] = starts_[r] + counts_[r];
  for (auto a : {&ParticleSet::x, &ParticleSet::y, &ParticleSet::z, &ParticleSet::gx,
                 &ParticleSet::gy, &ParticleSet::gz, &ParticleSet::sigma})
    gather(mine.*a, all_.*a);
  all_field_.resize(all_.size(), field.has_gradient);
  for (int c = 0; c < 3; ++c) gather(field.u[c], all_field_.u[c]);
  for (int c = 0; field.has_gradient && c < 9; ++c) gather(field.du[c], all_field_.du[c]);
  all = rank_ == 0 ? &all_ : nullptr;
  all_field = rank_ == 0 ? &all_field_ : nullptr;
}

}  // namespace

int run_on_ranks(Settings& s, const RunPlan& plan) {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  int status = 0;
  try {
    RankSteps steps(plan);
    status = simulate_with(s, plan, steps);
  } catch (const std::exception& e) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::fprintf(stderr, "vortex-ring: error on rank %d: %s\n", rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return status;
}

}  // namespace vortex::ring_app
