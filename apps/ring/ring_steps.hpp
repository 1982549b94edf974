#pragma once
// How a ring run's steps are carried out: in this process, or split over the ranks of
// MPI_COMM_WORLD (--mpi), each rank advancing its share of the particles with the distributed
// solver and the toolkit's steps on ranks, rank 0 recording the whole set.

#include <cstddef>
#include <memory>

#include "ring_diffusion.hpp"
#include "ring_settings.hpp"
#include "vortex/field.hpp"
#include "vortex/particles.hpp"
#include "vortex/time_integration.hpp"

namespace vortex::ring_app {

class RingSteps {
 public:
  virtual ~RingSteps() = default;
  // Whether this process records, prints and writes the files.
  virtual bool records() const = 0;
  // This process's share of the rings' particles (made the same on every process).
  virtual ParticleSet share(const ParticleSet& all) = 0;
  // Before each step: the particles where the next evaluation wants them.
  virtual void start_step(ParticleSet& particles) = 0;
  virtual TimeIntegrator& integrator() = 0;
  // One diffusion step; returns the particles inserted (of the whole set).
  virtual std::size_t diffuse(ParticleSet& particles, double nu, double dt,
                              const Diffusion& diffusion) = 0;
  // Particle control; returns the particles removed (of the whole set).
  virtual std::size_t control(ParticleSet& particles, const ParticleControlOptions& options) = 0;
  // The whole set and its field where this process records (else null), from each process's.
  virtual void whole(const ParticleSet& mine, const VelocityField& field, const ParticleSet*& all,
                     const VelocityField*& all_field) = 0;
  // The particles of the whole set.
  virtual std::size_t total(std::size_t mine) = 0;
};

// The time integrator's options of the plan.
TimeIntegratorOptions integrator_options(const RunPlan& plan);

// The steps in this process.
std::unique_ptr<RingSteps> process_steps(const RunPlan& plan);

// --mpi: initializes MPI, runs the ring with the steps over MPI_COMM_WORLD's ranks
// (simulate_with), finalizes. A rank whose part fails ends the job (MPI_Abort) after printing its
// error, rather than leave the others waiting. In a build without MPI, throws cli::UsageError.
int run_on_ranks(Settings& s, const RunPlan& plan);

}  // namespace vortex::ring_app
