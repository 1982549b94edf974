#pragma once
// The VRM's first round on the GPU (vortex/vrm.hpp): for each owner it is given, one thread finds
// the particles within R on the host's grid of cells (vortex/math/grid_cells.hpp), in ascending
// order as the host's search returns them, and another solves for their non-negative fractions by
// the dual method the host runs too (vortex/math/vrm_dual.hpp): the first few Newton iterations
// in that thread, the rest of the owners still unsolved in a second kernel whose threads each take
// the next of them as soon as their own is done (a warp no longer waits for its slowest owner's
// many iterations); the few owners whose solve needs an eigendecomposition or a regularized
// factorization are solved again from the start with those steps (vrm::SmallFallback, the host's
// too) in a third kernel. The particles' coordinates and strengths are copied once per call (load),
// the strengths beside the solves; the grid's sorted copy of the coordinates is gathered on the
// device. The owners come in batches, each solved as soon as it is given (the host lists the owners
// near a body only once it knows where the wall is, and meanwhile the device solves those far from
// it); a later round's owners find their neighbours among the particles inserted since as well
// (add_particles), and their lists come back to the host.
// Owners with more neighbours than vrm::kRoundSlots come back `crowded`, solves whose regularized
// factorization fails even there (a shifted matrix with a pivot not positive) `deferred`: the host
// solves both. Owners without a solution come back with the free lattice nodes around them, where
// new particles may go (vortex/math/vrm_nodes.hpp), in batches whose lists leave no particle
// out. The solved owners' lists stay on the device: every particle gathers what they give it
// (vortex/math/vrm_handover.hpp), and only these sums come back.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "vortex/math/grid_cells.hpp"
#include "vortex/math/vrm_round_results.hpp"

namespace vortex::gpu {

// The particles of one VRM call, as the device keeps them for its batches of owners.
struct VrmRoundParticles {
  GridView grid;            // built on the host over exactly the particles below, cells >= radius
  const double *x, *y, *z;  // the particles (host arrays)
  const double *gx, *gy, *gz;  // their strengths
  std::size_t n;
  std::size_t capacity;  // the most owners that the batches until the next hand_over hold together
  double radius;         // R
  double spacing;        // h: offsets are taken in units of h
  double hole;           // a lattice node is free if no particle lies within this distance
  double moments[10];    // 1, first moments, second moments, in units of h
};

// A batch of owners to solve.
struct VrmRoundBatch {
  const std::int32_t* owners;  // host array
  std::size_t count;
  // Optional, per owner: the row of `own_moments` (10 values each, units of h) that replaces the
  // free moments for it, or -1.
  const std::int32_t* moment_row = nullptr;
  const double* own_moments = nullptr;
  std::size_t own_count = 0;
  // Optional, per particle: its distance from the wall; particles below 0 (inside a body) are no
  // one's neighbours.
  const double* distance = nullptr;
  // The solved owners' lists come back (and their strengths are not handed over: the host hands
  // them over with its own).
  bool lists = false;
};

// Particles added after load (indices n on, for the particles loaded), with a grid built over them
// alone; their neighbours are found on both grids.
struct VrmAddedParticles {
  GridView grid;
  const double *x, *y, *z;
  std::size_t n;
};

class VrmRoundKernel {
 public:
  VrmRoundKernel();
  ~VrmRoundKernel();
  VrmRoundKernel(const VrmRoundKernel&) = delete;
  VrmRoundKernel& operator=(const VrmRoundKernel&) = delete;

  // Queues the grid's and the particles' uploads (returns once the host arrays may change).
  void load(const VrmRoundParticles& particles);
  // Solves a batch of owners on the loaded particles; returns once their outcomes are on the host.
  // The batches until the next hand_over hold at most the capacity given to load (a batch with
  // lists is not held).
  vrm::RoundBatchResult solve(const VrmRoundBatch& batch);
  // Particles added since load (they replace those added before): the later batches' owners find
  // neighbours among them too.
  void add_particles(const VrmAddedParticles& added);
  // What every owner solved since load gives each particle.
  vrm::RoundHandover hand_over();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vortex::gpu
