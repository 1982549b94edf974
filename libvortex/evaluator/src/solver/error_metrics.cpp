#include "vortex/error_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

#include "vortex/solver.hpp"

namespace vortex {

namespace {

// Accumulates the two metrics for one quantity (velocity or gradient).
struct ErrorSums {
  double relative_sum = 0;
  std::size_t relative_count = 0;
  double error_squared = 0;
  double reference_squared = 0;

  void add(double error2, double reference2) {
    error_squared += error2;
    reference_squared += reference2;
    if (reference2 > 0) {
      relative_sum += std::sqrt(error2 / reference2);
      ++relative_count;
    }
  }
  double mean_relative() const { return relative_count ? relative_sum / relative_count : 0; }
  double relative_l2() const {
    if (reference_squared > 0) return std::sqrt(error_squared / reference_squared);
    return error_squared > 0 ? INFINITY : 0;
  }
};

}  // namespace

FieldErrors compare_fields(const VelocityField& approx, const VelocityField& reference,
                           const std::vector<std::size_t>& indices) {
  const std::size_t n = reference.size();
  if (indices.empty() && approx.size() != n) {
    throw std::invalid_argument("compare_fields: " + std::to_string(approx.size()) +
                                " values against " + std::to_string(n) + " reference values");
  }
  if (!indices.empty() && indices.size() != n) {
    throw std::invalid_argument("compare_fields: " + std::to_string(indices.size()) +
                                " indices for " + std::to_string(n) + " reference values");
  }
  FieldErrors errors;
  errors.has_gradient = approx.has_gradient && reference.has_gradient;
  ErrorSums velocity, gradient;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t j = indices.empty() ? i : indices[i];
    if (j >= approx.size()) {
      throw std::invalid_argument("compare_fields: index " + std::to_string(j) + " out of range");
    }
    double e2 = 0, r2 = 0;
    for (int c = 0; c < 3; ++c) {
      const double d = approx.u[c][j] - reference.u[c][i];
      e2 += d * d;
      r2 += reference.u[c][i] * reference.u[c][i];
    }
    velocity.add(e2, r2);
    if (errors.has_gradient) {
      e2 = r2 = 0;
      for (int c = 0; c < 9; ++c) {
        const double d = approx.du[c][j] - reference.du[c][i];
        e2 += d * d;
        r2 += reference.du[c][i] * reference.du[c][i];
      }
      gradient.add(e2, r2);
    }
  }
  errors.n_sampled = n;
  errors.velocity_mean_rel = velocity.mean_relative();
  errors.velocity_rel_l2 = velocity.relative_l2();
  if (errors.has_gradient) {
    errors.gradient_mean_rel = gradient.mean_relative();
    errors.gradient_rel_l2 = gradient.relative_l2();
  }
  return errors;
}

std::vector<std::size_t> sample_indices(std::size_t n, std::size_t sample, std::uint64_t seed) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  if (sample >= n) return all;
  // Partial Fisher-Yates shuffle; the index draw uses the top 53 bits, as the generators do.
  std::mt19937_64 rng(seed);
  for (std::size_t i = 0; i < sample; ++i) {
    const double u = static_cast<double>(rng() >> 11) * 0x1.0p-53;
    const std::size_t j = i + std::min(n - i - 1, static_cast<std::size_t>(u * (n - i)));
    std::swap(all[i], all[j]);
  }
  all.resize(sample);
  std::sort(all.begin(), all.end());
  return all;
}

Points gather_points(PointsView points, const std::vector<std::size_t>& indices) {
  Points out;
  out.resize(indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const std::size_t j = indices[i];
    if (j >= points.size()) {
      throw std::invalid_argument("gather_points: index " + std::to_string(j) + " out of range");
    }
    out.x[i] = points.x[j];
    out.y[i] = points.y[j];
    out.z[i] = points.z[j];
  }
  return out;
}

VelocityField reference_field(SourcesView sources, PointsView targets, bool gradient, Core core,
                              int threads) {
  SolverOptions options;
  options.core = core;
  options.method = Method::Direct;
  options.backend = Backend::Cpu;
  options.precision = Precision::Double;
  options.threads = threads;
  Solver solver(options);
  VelocityField out;
  solver.evaluate(sources, targets, gradient, out);
  return out;
}

FieldErrors sampled_errors(SourcesView sources, PointsView targets, const VelocityField& field,
                           std::size_t sample, Core core, std::uint64_t seed, int threads) {
  if (field.size() != targets.size())
    throw std::invalid_argument("sampled_errors: " + std::to_string(field.size()) + " values for " +
                                std::to_string(targets.size()) + " targets");
  const std::vector<std::size_t> indices = sample_indices(targets.size(), sample, seed);
  if (indices.empty()) return {};
  const Points points = gather_points(targets, indices);
  const VelocityField reference =
      reference_field(sources, PointsView(points), field.has_gradient, core, threads);
  return compare_fields(field, reference, indices);
}

}  // namespace vortex
