#pragma once
// The fractions of one particle with the caller's scratch (the moment rows, weights, dots), so that
// repeated solves allocate nothing once the scratch has grown: vrm.cpp keeps one per thread.

#include <Eigen/Dense>
#include <array>
#include <vector>

#include "vortex/vrm.hpp"
#include "vrm_dual.hpp"

namespace vortex::detail {

struct VrmSolveScratch {
  std::vector<Eigen::Matrix<double, 10, 1>> rows;
  std::vector<double> inverse_weights;   // 1 / c_q
  std::vector<double> dots, trial_dots;  // a_q . lambda, at lambda and at a trial point
};

// As vortex::solve_redistribution (the same arithmetic), or with the Newton directions of
// `newton_by`.
bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          const VrmMoments& target, std::vector<double>& fractions,
                          VrmSolveScratch& scratch, double* residual, int* iterations,
                          VrmNewton newton_by = VrmNewton::cholesky_first);

}  // namespace vortex::detail
