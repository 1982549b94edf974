#pragma once
// Accuracy of an evaluation against a reference (docs/methods/treecode.md, section 2), and the
// double-precision CPU direct sum that serves as the reference.
//
// Over n compared targets, with |.| the Euclidean norm of the velocity and the Frobenius norm of
// the gradient:
//   mean relative error  (1/n) sum_i |u_i - u_i^ref| / |u_i^ref|
//   global relative L2   sqrt(sum_i |u_i - u_i^ref|^2) / sqrt(sum_i |u_i^ref|^2)
// Targets where the reference is exactly zero are left out of the mean (they have no relative
// error); n_sampled counts every compared target.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "vortex/field.hpp"
#include "vortex/math/core_kind.hpp"
#include "vortex/particles.hpp"

namespace vortex {

struct FieldErrors {
  double velocity_mean_rel = 0;
  double gradient_mean_rel = 0;  // 0 unless has_gradient
  double velocity_rel_l2 = 0;
  double gradient_rel_l2 = 0;  // 0 unless has_gradient
  std::size_t n_sampled = 0;
  bool has_gradient = false;  // both fields had gradients, so the gradient errors mean something
};

// Compares approx[indices[i]] with reference[i] for every i; with no indices, approx[i] with
// reference[i] (the sizes must then agree). Throws std::invalid_argument on size mismatches.
FieldErrors compare_fields(const VelocityField& approx, const VelocityField& reference,
                           const std::vector<std::size_t>& indices = {});

// `sample` distinct indices out of [0, n), drawn with the seed and sorted; all of [0, n) when
// sample >= n.
std::vector<std::size_t> sample_indices(std::size_t n, std::size_t sample, std::uint64_t seed);
// The points at those indices, in that order.
Points gather_points(PointsView points, const std::vector<std::size_t>& indices);

// The reference: Method::Direct, Backend::Cpu, Precision::Double, with the given core and threads.
VelocityField reference_field(SourcesView sources, PointsView targets, bool gradient, Core core,
                              int threads = 0);

// An evaluation's errors at `sample` of its targets (sample_indices with the seed) against the
// reference there: a check of a result on a cloud the tolerance model may not fit
// (docs/methods/tolerance.md). `field` holds the values at every target; the gradient is compared
// where it has one. Costs sample x sources pair interactions on the CPU.
FieldErrors sampled_errors(SourcesView sources, PointsView targets, const VelocityField& field,
                           std::size_t sample, Core core, std::uint64_t seed = 1, int threads = 0);

}  // namespace vortex
