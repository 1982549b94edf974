#pragma once
// Particle control's per-particle decisions on the GPU (vortex/particle_control.hpp): which strong
// particles merge, and the receivers and fractions of every candidate for removal, one thread per
// particle on the host's grid of cells (vortex/math/grid_cells.hpp), by the decisions written once
// for both in vortex/math/control_shares.hpp. A wall is seen through each particle's lower bound
// of its distance from it and, on a convex body, the tangent plane of its closest panel: a path
// that may come closer to the wall than that bound is taken where it ends beyond the plane
// (vortex/math/closest_panel.hpp's beyond_tangent_plane, the host's first test too); a particle
// with a path not cleared so is left to the host (its full wall test), as is one with more
// receivers than control::kSlots or whose solve needs the host's fallback. The hand-over, in
// the order that makes its sums independent of the threads, stays on the host.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "vortex/math/control_shares.hpp"
#include "vortex/math/grid_cells.hpp"

namespace vortex::gpu {

// The particles of one call, in the grid's sorted order (host arrays).
struct ControlParticles {
  GridView grid;              // cells of h, over every particle
  const double* strength;     // |Gamma| of the point at each place of the grid
  const double* wall;         // lower bounds of the distance from the wall, per place; null: none
  const std::int32_t* plane;  // with a wall: per place, its row of `planes` or -1
  const double* planes;       // 6 a row: a point of the tangent plane, its outward normal
  std::size_t plane_count;
  double body_scale;  // the body's bounding-box diagonal (the plane test's margin)
  // `wall` holds signed distances from a solid body: the paths they decide
  // (bodies::path_by_distances) are taken from them, as the host does.
  bool solid;
  double threshold;  // below it a particle is weak (a candidate, never a receiver)
  double spacing;    // h: offsets in units of h
};

class ControlKernel {
 public:
  ControlKernel();
  ~ControlKernel();
  ControlKernel(const ControlKernel&) = delete;
  ControlKernel& operator=(const ControlKernel&) = delete;

  // Uploads the particles; returns once the host arrays may change.
  void load(const ControlParticles& particles);
  // flags[s] for the particle at place s: control::kMerge where a stronger particle that is not
  // weak lies within `radius` and the wall not between them, control::kMergeOnHost where only
  // such particles lie whose path the device cannot clear, else control::kNoMerge (weak particles
  // too). Returns once `flags` is written.
  void merge_flags(double radius, std::int8_t* flags);
  // The receivers (caller indices, ascending) and fractions of the candidates at places
  // `places[0, count)` (merging[k] != 0: a merge, non-negative fractions only), searched from
  // `first_radius` on as absorb() does; candidate[s] != 0 marks the candidates by place, never
  // receivers. Returns once `out`, `receivers` and `fractions` are written (the pools hold the sum
  // of the counts).
  void shares(const std::int32_t* places, const std::uint8_t* merging, std::size_t count,
              const std::uint8_t* candidate, double first_radius, control::DeviceShares* out,
              std::int32_t*& receivers, double*& fractions);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vortex::gpu
