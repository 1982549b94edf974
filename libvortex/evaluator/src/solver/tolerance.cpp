#include "vortex/tolerance.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/text_excerpt.hpp"
#include "vortex/math/core_function.hpp"
#include "vortex/math/layout_grid.hpp"
#include "vortex/math/small_eigen.hpp"

namespace vortex {

namespace {

// Error model constants (tolerance.hpp), fitted by least squares to log(error) over p = 4..12,
// theta = 0.4..0.6 on the three cases at N = 2e4 to 3e5 (docs/journal/performance-to-2026-11-27.md,
// "Tolerance", scripts/studies/fit-tolerance-model.py); C is the fit's largest ratio of measured to
// modelled error (2.11) times a margin of 1.25.
constexpr double kErrorScale = 115.3;         // C
constexpr double kErrorDegreePower = -1.298;  // g
constexpr double kErrorRate = 1.042;          // b
constexpr double kErrorThetaPower = 1.124;    // s
constexpr double kErrorThetaFactor = 3.289;   // k1
constexpr double kErrorFarFactor = 3.973;     // k2
constexpr double kGrowthReference = 20000;    // N0
constexpr double kGrowthPower = 0.1656;       // eu, every layout
// ec, the clustered part: with the adaptive cuts (math/tree_node.hpp) the Plummer sphere's errors
// at N = 1e5 to 3e6 lie at least 1.5 times below the model with 0.43 (docs/methods/tolerance.md;
// 0.7044 was fitted on count-balanced trees, whose needles the errors grew with).
constexpr double kClusteredGrowthPower = 0.43;
// Contrasts up to D0 count as uniform: the clustered part is N (1 - D0 / D). Clouds of 1e6 whose
// dense part holds 1 to 50 % of the sources at D = 1.3 to 3.0 (and the discoid's wake, D = 1.3)
// have the cube's errors at the cube's parameters, while N (1 - 1 / D) took a tenth to two thirds
// of them for a Plummer core (docs/journal/2026-11-29-tolerance-contrast.md).
constexpr double kUniformContrast = 3;
// Filaments (a line or a thin ring of particles, one across, of even spacing: dimension near 1)
// erred up to 3.9 times more than the model says at every tolerance (1e-3 to 1e-6, N = 2e4 to
// 2e5, exponential core; docs/methods/tolerance.md): the self-induced velocity on a filament is a
// small remainder of large contributions from both sides. The model's error is raised by up to
// this factor (5 still left a ring of 2e5 at 1.4 times 1e-6), fully at dimension
// kFilamentDimension and below (filaments measure 1.0 to 1.2), none from kSheetDimension up
// (sheets measure 1.9 to 2.2).
constexpr double kFilamentFactor = 8;
constexpr double kFilamentDimension = 1.25;
constexpr double kSheetDimension = 1.75;
// Float's rounding on a filament: multiplied by about R / kFilamentCancellation (tolerance.hpp).
constexpr double kFilamentCancellation = 5;
// The spread across a filament (spread_across) up to which it counts whole, and from which not at
// all, in core radii: lines and rings one across spread 0 to 0.1; a ring tube of minor radius 0.01
// resolved by 200,000 particles at sigma = 0.005 spreads 0.93 (its errors at the volume's
// parameters: 1.1e-5 at 2e-4), the generator's ring of 19 particles across 0.78 (6e-6).
constexpr double kThinSpread = 0.25;
constexpr double kResolvedSpread = 0.75;

// float_rounding_error = a + b 2^-24 R.
constexpr double kFloatBase = 6e-7;   // a
constexpr double kFloatSlope = 0.45;  // b

// Share of the tolerance left to the core criterion: pairs beyond kappa sigma deviate from the
// singular kernel by at most this fraction of the tolerance.
constexpr double kCoreShare = 0.1;

// Relative stage costs of one backend at order p and criterion theta (seconds per unit do not
// matter: only the cheapest (p, theta) is sought). near ~ n0 + n1 theta^-3;
// far ~ (m0 + m1 theta^-3) (c0 + f (p + 1)^2), f = 1 with every far box at order p, or the share
// of the terms that per-box orders leave (TreeOptions::uniform_order off; measured at N = 1e6, p
// = 9: 44 % of the terms on the Plummer sphere, 61 % on the cube; the far field's time fell to
// 0.38 and 0.66 of M2P at p on the H100, and by 30 % on the CPU at 1e5).
struct CostModel {
  double n0, n1, m0, m1, c0, per_box;
  double operator()(int p, double theta, bool uniform_order) const {
    const double volume = 1 / (theta * theta * theta);
    const double terms = (p + 1.0) * (p + 1.0) * (uniform_order ? 1 : per_box);
    return n0 + n1 * volume + (m0 + m1 * volume) * (c0 + terms);
  }
};

// CPU: fitted to the near and far times of the same runs as the error model (cube, one thread).
// CUDA: the same shapes, the near field scaled to the H100's measured near:far ratio at p = 8,
// theta = 0.5 (16.8 : 18.6 ms at N = 1e6, docs/PERFORMANCE.md).
constexpr CostModel kCpuCost = {0.278, 0.0308, 0.00647, 0.000493, 24, 0.67};
constexpr CostModel kCudaCost = {0.522, 0.0579, 0.00647, 0.000493, 24, 0.5};

// CUDA target leaf sizes (set_buckets): the density contrasts (layout_of) from which a layout
// counts as uneven and as clustered.
constexpr double kEvenContrast = 10;
// layout_of counts per thread up to this many cells times threads (16 MB), with shared atomic
// counters beyond.
constexpr std::size_t kPrivateCounts = std::size_t(1) << 22;
constexpr double kClusteredContrast = 100;

// The source and target leaf sizes of a backend at order p, where not given. On the CPU a source
// leaf is worth its M2P when its pair sums cost about as much: (p + 1)^2 particles (the share of
// them that per-box orders leave), as a power of two in 32..256 (measured faster than 32 from p = 7
// on, docs/PERFORMANCE.md); target leaves 32.
// On CUDA, from sweeps of bucket pairs on the H100 (cube, Plummer sphere and sheet at 5e5 and 1e6,
// T = 2e-4 to 1e-6, float and double; docs/PERFORMANCE.md): source leaves of 128 at every order,
// target leaves of 32 on an even layout, 128 on a clustered one (density contrast of 100 or
// more), whose dense core makes small target leaves, and 64 in between.
void set_buckets(int order, Backend backend, const SourceLayout& layout, TreeOptions& t) {
  int target = 32;
  const double terms = (order + 1.0) * (order + 1.0) * (t.uniform_order ? 1 : kCpuCost.per_box);
  int source = 1 << std::clamp(static_cast<int>(std::lround(std::log2(terms))), 5, 8);
  if (backend == Backend::Cuda) {
    target =
        layout.contrast >= kClusteredContrast ? 128 : (layout.contrast >= kEvenContrast ? 64 : 32);
    source = 128;
  }
  if (t.target_bucket == 0) t.target_bucket = target;
  if (t.source_bucket == 0) t.source_bucket = source;
}

void require_fraction(double value, const char* what) {
  if (!(value > 0 && value < 1))
    throw std::invalid_argument(std::string(what) + " must be in (0, 1), got " +
                                detail::number_text(value));
}

}  // namespace

double core_deviation(Core core, double rho) {
  if (core == Core::Singular || !(rho > 0)) return core == Core::Singular ? 0 : 1;
  const CoreShape<double> k =
      dispatch_core(core, [&](auto c) { return core_shape<decltype(c)::value>(rho * rho); });
  const double rho3 = rho * rho * rho;
  const double f_deviation = std::abs(k.f * rho3 - 1);
  const double h_deviation = std::abs(k.h * rho3 * rho * rho / -3 - 1);
  return std::max(f_deviation, h_deviation);
}

double core_kappa(Core core, double deviation) {
  require_fraction(deviation, "core deviation");
  if (core == Core::Singular) return 0;
  // Every core's deviation falls monotonically with rho: step out geometrically, then bisect.
  double lo = 0, hi = 0.25;
  while (core_deviation(core, hi) > deviation && hi < 1e12) {
    lo = hi;
    hi *= 1.5;
  }
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (core_deviation(core, mid) > deviation ? lo : hi) = mid;
  }
  return hi;
}

double float_rounding_error(double mean_offset_in_sigmas, const SourceLayout& layout) {
  const double cancellation = std::pow(std::max(1.0, mean_offset_in_sigmas / kFilamentCancellation),
                                       filament_share(layout));
  return (kFloatBase + kFloatSlope * 0x1.0p-24 * mean_offset_in_sigmas) * cancellation;
}

SourceLayout layout_of(SourcesView s) {
  SourceLayout layout;
  layout.num_sources = s.size();
  const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(s.size());
  if (n < 2) return layout;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  const double* axes[3] = {s.x, s.y, s.z};
  for (int a = 0; a < 3; ++a) {
    const double* v = axes[a];
    double low = INFINITY, high = -INFINITY;
#pragma omp parallel for schedule(static) reduction(min : low) reduction(max : high)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      low = std::min(low, v[i]);
      high = std::max(high, v[i]);
    }
    lo[a] = low;
    hi[a] = high;
  }
  const int k = layout_grid::cells_per_side(s.size());
  const double scale = layout_grid::cell_scale(k, lo, hi);
  if (!(scale > 0)) return layout;
  // Kept between calls, so that repeated evaluations of a set allocate nothing.
  thread_local std::vector<std::uint32_t> count;
  const std::size_t cells = static_cast<std::size_t>(k) * k * k;
  const int threads = omp_get_max_threads();
  if (cells * threads <= kPrivateCounts) {
    // Each thread counts into its own cells, added up after: a clustered set sends most points
    // to a few cells, where shared counters would serialize the threads.
    count.assign(cells * threads, 0);
    std::uint32_t* const counts = count.data();
#pragma omp parallel
    {
      std::uint32_t* mine = counts + cells * omp_get_thread_num();
#pragma omp for schedule(static)
      for (std::ptrdiff_t i = 0; i < n; ++i)
        ++mine[layout_grid::cell_of(s.x[i], s.y[i], s.z[i], lo, scale, k)];
#pragma omp for schedule(static)
      for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(cells); ++c)
        for (int t = 1; t < threads; ++t) counts[c] += counts[cells * t + c];
    }
    count.resize(cells);
  } else {
    count.assign(cells, 0);
    std::uint32_t* const counts = count.data();  // this thread's buffer, shared with the team
#pragma omp parallel for schedule(static)
    for (std::ptrdiff_t i = 0; i < n; ++i) {
      const std::size_t c = layout_grid::cell_of(s.x[i], s.y[i], s.z[i], lo, scale, k);
#pragma omp atomic
      ++counts[c];
    }
  }
  layout_grid::count_statistics(count.data(), k, static_cast<double>(n), layout.contrast,
                                layout.dimension);
  if (filament_share(layout) > 0) {  // a filament by its dimension: how far across it spreads
    const std::vector<double> sample = spread_sample(s, spread_stride(s.size()));
    layout.spread = spread_across(sample.data(), sample.size() / 4, lo, scale, k);
  }
  return layout;
}

double filament_share(const SourceLayout& layout) {
  if (!(layout.contrast < kUniformContrast)) return 0;
  const double thin = std::clamp(
      (kSheetDimension - layout.dimension) / (kSheetDimension - kFilamentDimension), 0.0, 1.0);
  const double across =
      std::clamp((kResolvedSpread - layout.spread) / (kResolvedSpread - kThinSpread), 0.0, 1.0);
  return thin * across;
}

std::size_t spread_stride(std::size_t num_sources) {
  return std::max<std::size_t>(1, num_sources / kSpreadSample);
}

std::vector<double> spread_sample(SourcesView s, std::size_t stride) {
  std::vector<double> sample;
  sample.reserve(4 * ((s.size() + stride - 1) / stride));
  for (std::size_t i = 0; i < s.size(); i += stride)
    sample.insert(sample.end(), {s.x[i], s.y[i], s.z[i], s.sigma[i]});
  return sample;
}

double spread_across(const double* sample, std::size_t m, const double lo[3], double scale, int k) {
  const auto at_sample = [&](std::size_t i) { return sample + 4 * i; };
  std::vector<std::pair<std::size_t, std::size_t>> at(m);  // (cell, sample)
  for (std::size_t i = 0; i < m; ++i) {
    const double* v = at_sample(i);
    at[i] = {layout_grid::cell_of(v[0], v[1], v[2], lo, scale, k), i};
  }
  std::sort(at.begin(), at.end());
  double weighted = 0, samples = 0;
  for (std::size_t first = 0, last; first < m; first = last) {
    for (last = first; last < m && at[last].first == at[first].first;) ++last;
    const std::size_t count = last - first;
    if (count < 4) continue;
    // The covariance about the cell's mean, in cells (offsets from its first sample: no
    // cancellation; in cells: no overflow or underflow at any scale).
    const double* o = at_sample(at[first].second);
    double mean[3] = {0, 0, 0}, second[3][3] = {}, s = 0;
    for (std::size_t j = first; j < last; ++j) {
      const double* v = at_sample(at[j].second);
      const double d[3] = {(v[0] - o[0]) * scale, (v[1] - o[1]) * scale, (v[2] - o[2]) * scale};
      for (int r = 0; r < 3; ++r) {
        mean[r] += d[r];
        for (int c = 0; c <= r; ++c) second[r][c] += d[r] * d[c];
      }
      s += v[3];
    }
    const double w = static_cast<double>(count);
    double covariance[3][3] = {};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c <= r; ++c)
        covariance[r][c] = second[r][c] / w - mean[r] * mean[c] / (w * w);
    detail::SymmetricEigen<3> e;
    e.compute(covariance);
    const double smallest = std::min({e.value[0], e.value[1], e.value[2]});
    // Rounding below 0 (or a NaN) is no spread.
    weighted += w * std::sqrt(smallest > 0 ? smallest : 0.0) / (scale * s / w);
    samples += w;
  }
  return samples > 0 ? weighted / samples : 0.0;
}

double layout_growth(const SourceLayout& layout) {
  const double n = static_cast<double>(layout.num_sources);
  const double clustered = n * std::max(0.0, 1 - kUniformContrast / layout.contrast);
  return std::pow(std::max(1.0, n / kGrowthReference), kGrowthPower) *
         std::pow(std::max(1.0, clustered / kGrowthReference), kClusteredGrowthPower) *
         std::pow(kFilamentFactor, filament_share(layout));
}

double predicted_far_error(int order, double theta, const SourceLayout& layout) {
  const double p1 = order + 1.0;
  return kErrorScale * std::pow(p1, kErrorDegreePower) *
         std::pow(kErrorRate * std::pow(theta, kErrorThetaPower), p1) *
         std::pow(theta, kErrorThetaFactor) * std::pow(1 - theta, kErrorFarFactor) *
         layout_growth(layout);
}

TreeOptions tree_options_for_tolerance(double tolerance, Core core, Backend backend,
                                       const TreeOptions& given, const SourceLayout& layout) {
  require_fraction(tolerance, "tolerance");
  const CostModel& cost = backend == Backend::Cuda ? kCudaCost : kCpuCost;
  TreeOptions best = given;
  // Per-box orders make every far box about as accurate, relative to its own field, as one at the
  // acceptance limit; on a filament the boxes' fields cancel (the velocity is a small remainder of
  // them), so the sum of their errors outgrows the tolerance (a ring of 200,000 at p = 11, theta =
  // 0.575: 3.2e-4 with them, 1.5e-4 at order p everywhere): a layout at least half a filament
  // takes order p everywhere.
  best.uniform_order = given.uniform_order || filament_share(layout) >= 0.5;
  double best_cost = INFINITY, best_miss = INFINITY;
  // theta from 0.35 to 0.65, the range of the fit and a little beyond (or the given one); each
  // theta's smallest order (or the given one) whose predicted error is small enough.
  for (int i = 0; i <= 24; ++i) {
    const double theta = given.theta > 0 ? given.theta : 0.35 + 0.0125 * i;
    for (int p = given.order > 0 ? given.order : 1; p <= 16; ++p) {
      const bool last = given.order > 0 || p == 16;
      if (predicted_far_error(p, theta, layout) > tolerance && !last) continue;
      // A point that misses the tolerance only competes when nothing reaches it (then the
      // least predicted error wins).
      const double miss = predicted_far_error(p, theta, layout) / tolerance;
      const double c = miss > 1 ? INFINITY : cost(p, theta, best.uniform_order);
      if (c < best_cost || (best_cost == INFINITY && miss < best_miss)) {
        best_cost = c;
        best_miss = miss;
        best.order = p;
        best.theta = theta;
      }
      break;
    }
    if (given.theta > 0) break;
  }
  if (given.kappa == 0) best.kappa = core_kappa(core, kCoreShare * tolerance);
  set_buckets(best.order, backend, layout, best);
  return best;
}

}  // namespace vortex
