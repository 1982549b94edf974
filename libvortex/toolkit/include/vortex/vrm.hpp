#pragma once
// Viscous diffusion by the Vorticity Redistribution Method: each particle hands its strength to its
// neighbours within R by non-negative fractions of least weighted norm that reproduce the heat
// kernel's moments to second order (or a wall's image moments). The method, its dual solve, the
// insertions and the determinism: docs/methods/vrm.md.

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "vortex/math/vrm_round_results.hpp"
#include "vortex/options.hpp"
#include "vortex/particles.hpp"

namespace vortex {

// The moments that a particle's fractions reproduce: sum_q f_q d_q = first and
// sum_q f_q d_q d_q^T = second (xx, yy, zz, xy, xz, yz), besides sum_q f_q = 1.
struct VrmMoments {
  std::array<double, 3> first{};
  std::array<double, 6> second{};
};

// The free-space heat kernel's: no drift, 2 nu dt along each axis (`second_moment`).
VrmMoments free_space_moments(double second_moment);

struct VrmOptions {
  double spacing = 0;  // h: nominal particle spacing, the lattice of inserted particles (> 0)
  double radius_factor = 3.5;  // R >= radius_factor * sqrt(nu dt)
  double min_radius = 1.5;     // R >= min_radius * h (reaches face and edge lattice neighbours)
  double hole_distance = 0.5;  // a lattice node is free if no particle is within this * h
  bool insert = true;          // insert particles where the fractions have no solution
  // Particles weaker than this fraction of the largest |Gamma| never cause insertions; when they
  // have no non-negative solution they keep their strength for this step.
  double insert_threshold = 1e-4;
  // Use the signed least-norm fractions (exact moments) instead of keeping the strength. Off by
  // default: signed fractions do not bound sum |Gamma|, and repeated over many steps at the edge
  // of the vorticity they amplify noise that then calls for insertions.
  bool signed_fallback = false;
  double core_radius = 0;  // sigma of inserted particles; 0: that of the particle that asked
  int max_rounds = 4;      // insert-and-solve rounds per step
  // Optional wall: true when the straight path from particle i, at p, to point q leaves the fluid
  // (i as for wall_distance below). Such neighbours take no share of p's strength and no particle
  // is inserted at such q.
  std::function<bool(std::size_t i, const std::array<double, 3>& p, const std::array<double, 3>& q)>
      blocked;
  // Optional, with `blocked`: the wall's signed distance at particle i, at p (negative inside the
  // body), where p is within `reach` of the wall, a positive lower bound of it elsewhere. i is the
  // particle's index at the call (particles inserted during the step follow those of its start).
  // blocked(i, p, q) must be true when q's distance is negative, and false when |q - p| / 2 is less
  // than p's or q's (the path and its midpoint then lie in a ball free of the wall): such
  // neighbours are not tested one by one. Called from several threads.
  std::function<double(std::size_t i, const std::array<double, 3>& p, double reach)> wall_distance;
  // Optional: the moments of particle i's redistribution where they differ from the free-space
  // ones. Called (from several threads) with i, its position and 2 nu dt; returns false for the
  // free-space moments, or true with `moments` filled in absolute units. Such a particle that is
  // left without a solution (kept) hands its strength to a new particle moved by the first
  // moment, so that at least the drift is reproduced.
  std::function<bool(std::size_t i, const std::array<double, 3>& p, double two_nu_dt,
                     VrmMoments& moments)>
      moments;
  // Optional: what the wall hooks need done before they are asked, for the particles of a call
  // and its dt (a body finds its particles' closest wall points there). Called once a call, after
  // the neighbour search is built; with the device, while the device solves the owners that
  // `wall_far` puts beyond the wall.
  std::function<void(const ParticleSet& particles, double dt)> prepare_wall;
  // Optional: true only where a particle at p is beyond the reach of every wall hook in a call
  // with this dt (wall_distance above 2 R, nothing blocked within 2 R, the moments hook's answer
  // false), by a cheap test such as the body's bounding box; false where unsure. Asked before
  // prepare_wall: with the device, such owners go to it at once.
  std::function<bool(const std::array<double, 3>& p, double dt)> wall_far;
  // Backend::Cuda (or Auto where a device is present): the first round's owners that no wall can
  // block (none within R/2, given the wall_distance hook; with the moments hook's moments) are
  // solved on the GPU by the same dual method (vortex/math/vrm_dual.hpp), which also hands
  // their strengths over (vortex/math/vrm_handover.hpp); the others, the insertions and the
  // handover of the rest, on the host. The owners `wall_far` names go first, beside prepare_wall;
  // the others once the wall hooks can answer. In the later rounds the device solves those of
  // the first batch again with the inserted particles, and the host takes their lists. For those
  // of the first batch and the later rounds that have no solution, the device also finds the free
  // lattice nodes that the host's insertions take. The results equal the host's to rounding.
  Backend backend = Backend::Cpu;
};

void validate(const VrmOptions& options);

// The neighbourhood radius R of a step: max(radius_factor sqrt(nu dt), min_radius h).
double vrm_radius(const VrmOptions& options, double nu, double dt);

// The device's solves of one VRM call by kernel (CUDA events): the owners' neighbour lists, their
// first Newton iterations, the unfinished owners resumed, the deferred owners' solves with the
// fallback's steps, the free lattice nodes of the owners without a solution; and how many owners
// needed the fallback (vortex/math/vrm_round_results.hpp).
using VrmKernelSeconds = vrm::RoundKernelTimes;

struct VrmStats {
  std::size_t diffused = 0;         // particles redistributed with non-negative fractions
  std::size_t signed_fallback = 0;  // redistributed with signed fractions (when enabled)
  std::size_t kept = 0;             // weak particles that kept their strength (no solution)
  std::size_t moved = 0;            // of those, moved by the moments hook's first moment
  std::size_t unresolved = 0;       // of those, particles above insert_threshold
  std::size_t inserted = 0;         // particles added (and given strength)
  std::size_t device_solved = 0;    // owners the GPU solved (VrmOptions::backend)
  std::size_t device_deferred = 0;  // owners the GPU left to the host (too many neighbours, ...)
  std::size_t device_unsolved = 0;  // owners the GPU found without a solution within R
  std::size_t device_crowded = 0;   // of the deferred: those with too many neighbours
  std::size_t device_far = 0;       // owners given to the device before the wall was prepared
  std::size_t device_later = 0;     // of device_solved, those of the later rounds
  std::size_t device_proposed = 0;  // owners whose insertion nodes the device found (all rounds)
  int rounds = 0;
  double strongest = 0;     // the largest |Gamma| of the particles it started from
  double radius = 0;        // the neighbourhood radius R used
  double max_residual = 0;  // largest moment residual of an accepted solve
  double mean_neighbors = 0;
  double seconds = 0;
  // Of seconds: the set-up (states, the grid), the wall (prepare_wall, the wall distances and
  // moments asked of the hooks), the waits for the device's first round (with the hand-over of
  // its owners' strengths), the host's rounds (with the insertions), the hand-over of the other
  // strengths.
  double seconds_setup = 0, seconds_wall = 0, seconds_device = 0, seconds_rounds = 0,
         seconds_redistribute = 0;
  // Of seconds_setup: the grid's build. The device's own time (CUDA events, beside the host's
  // work) for the uploads, the solves, the hand-over and the downloads. Of seconds_rounds: the
  // insertions (the proposed nodes made particles, their wall distances and search).
  double seconds_grid = 0, seconds_upload = 0, seconds_solve = 0, seconds_handover = 0,
         seconds_download = 0, seconds_insert = 0;
  // Of seconds_rounds, with the device: the host's first pass (beside the device's round), its
  // passes over the owners the device gave back, and the later rounds' calls of the device (their
  // owners picked, uploaded, solved and read back, the host waiting).
  double seconds_host_first = 0, seconds_returned = 0, seconds_later_device = 0;
  VrmKernelSeconds device_kernels;  // of seconds_solve: the device's kernels
};

// The fractions of one particle. `offsets` are d_q / h (the particle itself at index `self`, zero
// offset), `second_moment` is 2 nu dt / h^2. Returns true and fills `fractions` when a non-negative
// solution exists; `residual` gets the max-norm moment residual, `iterations` the Newton count.
bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          double second_moment, std::vector<double>& fractions,
                          double* residual = nullptr, int* iterations = nullptr);
// The same for any target moments (in units of h and h^2, as the offsets).
bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          const VrmMoments& target, std::vector<double>& fractions,
                          double* residual = nullptr, int* iterations = nullptr);

// The signed least-norm fractions (no positivity), or false when the moments are not reachable.
bool solve_redistribution_signed(const std::vector<std::array<double, 3>>& offsets, int self,
                                 double second_moment, std::vector<double>& fractions);
bool solve_redistribution_signed(const std::vector<std::array<double, 3>>& offsets, int self,
                                 const VrmMoments& target, std::vector<double>& fractions);

// Non-negative fractions of least weighted norm with only sum f = 1 and sum f d = 0 (`offsets`
// are d_q / h; the particle itself is not among them): how particle_control hands the strength
// of a removed particle to its neighbours. False when the particle is outside their convex hull.
bool solve_first_moment_fractions(const std::vector<std::array<double, 3>>& offsets,
                                  std::vector<double>& fractions);

class VrmWorkspace;
namespace detail {
struct VrmParts;
// A step on one part of a set split over processes (the distributed toolkit's).
VrmStats vrm_diffuse_part(ParticleSet& particles, double nu, double dt, const VrmOptions& options,
                          VrmWorkspace& workspace, const VrmParts& parts);
}  // namespace detail

// The storage of vrm_diffuse (neighbour search, per-thread scratch, fractions), kept from one call
// to the next.
class VrmWorkspace {
 public:
  VrmWorkspace();
  ~VrmWorkspace();
  VrmWorkspace(VrmWorkspace&&) noexcept;
  VrmWorkspace& operator=(VrmWorkspace&&) noexcept;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  friend VrmStats vrm_diffuse(ParticleSet&, double, double, const VrmOptions&, VrmWorkspace&);
  friend VrmStats detail::vrm_diffuse_part(ParticleSet&, double, double, const VrmOptions&,
                                           VrmWorkspace&, const detail::VrmParts&);
};

// One diffusion step of the whole set: redistributes strengths and appends the inserted particles
// that received a share (and the moved ones of the moments hook) at the end. Positions of
// existing particles do not change.
VrmStats vrm_diffuse(ParticleSet& particles, double nu, double dt, const VrmOptions& options);
// The same in a workspace kept across calls (the same result).
VrmStats vrm_diffuse(ParticleSet& particles, double nu, double dt, const VrmOptions& options,
                     VrmWorkspace& workspace);

}  // namespace vortex
