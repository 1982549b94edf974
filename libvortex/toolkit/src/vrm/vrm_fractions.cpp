// VRM fractions: the moment equations of one particle's neighbourhood and their non-negative
// (or signed) least-norm solutions.

#include "vortex/vrm.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "vrm/vrm_dual.hpp"
#include "vrm/vrm_solve.hpp"

namespace vortex {

namespace {

using Vec10 = Eigen::Matrix<double, 10, 1>;
using Mat10 = Eigen::Matrix<double, 10, 10>;

// Moment row of a neighbour at offset d: 1, d, and the six second-order products.
Vec10 moment_row(const std::array<double, 3>& d) {
  Vec10 a;
  vrm::moment_row<10>(d.data(), a.data());
  return a;
}

double weight(const std::array<double, 3>& d) {
  return vrm::weight(d.data());
}

// Makes sum f = 1 hold to rounding by adjusting the particle's own share.
void close_sum(std::vector<double>& f, int self) {
  double others = 0;
  for (std::size_t q = 0; q < f.size(); ++q)
    if (static_cast<int>(q) != self) others += f[q];
  f[self] = 1.0 - others;
}

// The offsets as the 3 m doubles the shared solve reads.
const double* flat(const std::vector<std::array<double, 3>>& offsets) {
  static_assert(sizeof(std::array<double, 3>) == 3 * sizeof(double), "packed offsets");
  return offsets.empty() ? nullptr : offsets.front().data();
}

}  // namespace

VrmMoments free_space_moments(double second_moment) {
  VrmMoments m;
  m.second = {second_moment, second_moment, second_moment, 0, 0, 0};
  return m;
}

bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          double second_moment, std::vector<double>& f, double* residual_out,
                          int* iterations_out) {
  return solve_redistribution(offsets, self, free_space_moments(second_moment), f, residual_out,
                              iterations_out);
}

bool solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                          const VrmMoments& target, std::vector<double>& f, double* residual_out,
                          int* iterations_out) {
  detail::VrmSolveScratch scratch;
  return detail::solve_redistribution(offsets, self, target, f, scratch, residual_out,
                                      iterations_out);
}

std::array<double, 10> detail::moment_target(const VrmMoments& m) {
  return {1,           m.first[0],  m.first[1],  m.first[2],  m.second[0],
          m.second[1], m.second[2], m.second[3], m.second[4], m.second[5]};
}

bool detail::solve_redistribution(const std::vector<std::array<double, 3>>& offsets, int self,
                                  const VrmMoments& target, std::vector<double>& f,
                                  VrmSolveScratch& scratch, double* residual_out,
                                  int* iterations_out, VrmNewton newton_by) {
  const int m = static_cast<int>(offsets.size());
  f.assign(m, 0.0);
  scratch.inverse_weights.resize(m);
  scratch.dots.resize(m);
  scratch.trial_dots.resize(m);
  const vrm::DualArrays arrays{scratch.inverse_weights.data(), f.data(), scratch.dots.data(),
                               scratch.trial_dots.data()};
  const auto b = moment_target(target);
  return vrm::solve_redistribution(m, flat(offsets), self, b.data(), arrays,
                                   newton_by == VrmNewton::cholesky_first, scratch.fallback,
                                   residual_out, iterations_out) == vrm::Outcome::solved;
}

bool solve_first_moment_fractions(const std::vector<std::array<double, 3>>& offsets,
                                  std::vector<double>& f) {
  const int m = static_cast<int>(offsets.size());
  f.assign(m, 0.0);
  std::vector<double> inv_c(m), dots(m), trial_dots(m);
  detail::HostFallback<4> fallback;
  const double b[4] = {1, 0, 0, 0};
  if (vrm::solve_nonnegative<4>(m, flat(offsets), b,
                                {inv_c.data(), f.data(), dots.data(), trial_dots.data()}, true,
                                fallback, nullptr, nullptr) != vrm::Outcome::solved)
    return false;
  // sum f = 1 to rounding: the largest share absorbs the difference.
  const auto largest = std::max_element(f.begin(), f.end()) - f.begin();
  double others = 0;
  for (int q = 0; q < m; ++q)
    if (q != largest) others += f[q];
  f[largest] = 1.0 - others;
  return true;
}

bool solve_redistribution_signed(const std::vector<std::array<double, 3>>& offsets, int self,
                                 double second_moment, std::vector<double>& f) {
  return solve_redistribution_signed(offsets, self, free_space_moments(second_moment), f);
}

bool solve_redistribution_signed(const std::vector<std::array<double, 3>>& offsets, int self,
                                 const VrmMoments& target, std::vector<double>& f) {
  const int m = static_cast<int>(offsets.size());
  f.assign(m, 0.0);
  if (m == 0 || self < 0 || self >= m) return false;
  std::vector<Vec10> a(m);
  Mat10 h = Mat10::Zero();
  for (int q = 0; q < m; ++q) {
    a[q] = moment_row(offsets[q]);
    h.noalias() += a[q] * a[q].transpose() / weight(offsets[q]);
  }
  const Vec10 b = Eigen::Map<const Vec10>(detail::moment_target(target).data());
  const Eigen::FullPivLU<Mat10> lu(h);
  if (lu.rank() < 10) return false;
  const Vec10 lambda = lu.solve(b);
  for (int q = 0; q < m; ++q) f[q] = a[q].dot(lambda) / weight(offsets[q]);
  close_sum(f, self);
  return true;
}

}  // namespace vortex
