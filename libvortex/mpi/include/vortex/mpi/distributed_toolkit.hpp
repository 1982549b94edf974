#pragma once
// The vortex method's steps over the ranks of an MPI communicator, for particles split over them
// (each rank its own, such as the DistributedSolver's repartition leaves them):
//
//   vortex::mpi::vrm_diffuse(MPI_COMM_WORLD, my_particles, nu, dt, vrm_options, workspace);
//   vortex::mpi::control_particles(MPI_COMM_WORLD, my_particles, control_options, workspace);
//   vortex::mpi::pse_diffuse(MPI_COMM_WORLD, my_particles, nu, dt, pse_options);
//
// Each is the one-rank step of all ranks' particles: every particle finds the neighbours it has in
// the whole set (copies of the other ranks' particles near this rank's, a halo, travel first),
// and gets what the whole set's step gives it, to rounding. A rank keeps its particles, in its
// order, and those the step inserts near them. Calls are collective; a rank may hold no
// particles. The options must be the same on every rank (checked: every rank throws
// std::invalid_argument naming the option). docs/methods/distributed.md says how.

#include <mpi.h>

#include "vortex/diagnostics.hpp"
#include "vortex/field.hpp"
#include "vortex/particle_control.hpp"
#include "vortex/particles.hpp"
#include "vortex/pse.hpp"
#include "vortex/vrm.hpp"

namespace vortex::mpi {

// vrm_diffuse over the ranks. The counts of the stats are the whole set's, the times this rank's.
// The wall hooks (VrmOptions::blocked ...) are asked of this rank's particles followed by its
// halo's copies and the particles inserted (prepare_wall gets that set).
VrmStats vrm_diffuse(MPI_Comm comm, ParticleSet& particles, double nu, double dt,
                     const VrmOptions& options, VrmWorkspace& workspace);

// pse_diffuse over the ranks; returns the sub-steps (the same on every rank).
int pse_diffuse(MPI_Comm comm, ParticleSet& particles, double nu, double dt,
                const PseOptions& options);

// control_particles over the ranks; the stats are the whole set's. The wall hook
// (ParticleControlOptions::blocked) is asked of this rank's particles followed by its halo's
// copies.
ParticleControlStats control_particles(MPI_Comm comm, ParticleSet& particles,
                                       const ParticleControlOptions& options,
                                       ParticleControlWorkspace& workspace);

// compute_diagnostics of the whole set (`field`, when given, at this rank's particles): every rank
// gets the sums of all ranks'.
Diagnostics compute_diagnostics(MPI_Comm comm, const ParticleSet& particles,
                                const VelocityField* field = nullptr, double time = 0);

}  // namespace vortex::mpi
