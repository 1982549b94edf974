#pragma once
// The GPU side of vrm_diffuse: the first round's solves of the owners in free space and the
// hand-over of their strengths (vrm_round_cuda.cpp with CUDA; no_cuda.cpp makes none
// in a build without it). What it returns is declared once, for the device too, in
// vortex/math/vrm_round_results.hpp.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "vortex/math/grid_cells.hpp"
#include "vortex/math/vrm_round_results.hpp"
#include "vortex/particles.hpp"
#include "vortex/vrm.hpp"

namespace vortex::detail {

class VrmDevice {
 public:
  // Null in a build without CUDA.
  static std::unique_ptr<VrmDevice> create();
  virtual ~VrmDevice() = default;
  // The particles of `p` and the grid built over them, for batches of owners that hold at most
  // `capacity` owners together until the next hand_over; neighbours within `radius`, fractions
  // for the ten `moments` (units of h) unless a batch gives an owner its own; a lattice node is
  // free if no particle lies within `hole` of it.
  virtual void load(const GridView& grid, const ParticleSet& p, std::size_t capacity, double radius,
                    double h, double hole, const std::array<double, 10>& moments) = 0;
  // The owners' neighbours and fractions, for an owner whose `moment_row` is r >= 0 (when given)
  // for row r of `own_moments` (10 values a row), leaving out the particles whose `distance` from
  // the wall (when given) is below 0. Returns once the outcomes are on the host.
  // With `lists`, the solved owners' lists come back and are not handed over.
  virtual vrm::RoundBatchResult solve(const std::int32_t* owners, std::size_t count,
                                      const std::int32_t* moment_row, const double* own_moments,
                                      std::size_t own_count, const double* distance,
                                      bool lists = false) = 0;
  // Particles added since load (indices on from the loaded ones: `inserted`, its first
  // `loaded` particles skipped) and the grid over them alone; later batches find neighbours
  // among them too.
  virtual void add_particles(const GridView& grid, const ParticleSet& inserted,
                             std::size_t loaded) = 0;
  // What the owners solved since load give each particle by their fractions.
  virtual vrm::RoundHandover hand_over() = 0;
};

}  // namespace vortex::detail
