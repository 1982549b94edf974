#pragma once
// The fractions of one particle with the caller's scratch (weights, dots), so that repeated solves
// allocate nothing once the scratch has grown: vrm/vrm.cpp keeps one per thread.

#include <array>
#include <vector>

#include "vortex/vrm.hpp"
#include "vrm/vrm_dual.hpp"

namespace vortex::detail {

struct VrmSolveScratch {
  std::vector<double> inverse_weights;   // 1 / c_q
  std::vector<double> dots, trial_dots;  // a_q . lambda, at lambda and at a trial point
  HostFallback<10> fallback;
};

// The ten moment targets of vrm::solve_redistribution: 1, the first moments, the second ones.
std::array<double, 10> moment_target(const VrmMoments& target);

// As vortex::solve_redistribution (the same arithmetic), or with the Newton directions of
// `newton_by`.
bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          const VrmMoments& target, std::vector<double>& fractions,
                          VrmSolveScratch& scratch, double* residual, int* iterations,
                          VrmNewton newton_by = VrmNewton::cholesky_first);

}  // namespace vortex::detail
