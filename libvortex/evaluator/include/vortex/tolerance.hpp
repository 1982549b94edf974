#pragma once
// The treecode's parameters picked from an accuracy target: the mean relative error of the
// velocity and of its gradient that the caller accepts (SolverOptions::tolerance).
//
// Error model: the multipole expansion of order p of a box seen at a distance d >= r / theta is
// truncated with a relative error bounded by theta^(p+1) / (1 - theta) (the geometric series of
// the neglected degrees). Mean errors follow theta^(p+1) with a slightly smaller power (most
// targets are farther than the bound's worst target), and flatten at large theta, where boxes
// that pass the criterion with room to spare dominate; so the model is
//   error(p, theta, layout) = C (p + 1)^g (b theta^s)^(p+1) theta^k1 (1 - theta)^k2 G(layout),
// fitted to the largest of the mean velocity and gradient errors measured on the random cube,
// the Plummer sphere and the thin sheet at N = 2e4 to 3e5 (the constants and the data:
// docs/journal/performance-to-2026-11-27.md, "Tolerance"), C raised so that every measured point
// lies below the model.
//
// G is the layout's growth with N: the mean relative error of a uniform set (the cube) grows
// slowly with N (about N^0.17), that of a clustered one (the Plummer sphere) fast (about N^0.87
// from 2e4 to 3e5), in its dense part. The layout statistic is the density contrast D of the
// sources on a coarse grid (SourceLayout, layout_of): 1 for a uniform set, 1.04 to 1.11 for the
// thin sheet, 85 to 630 for the Plummer sphere. Of N sources about N (1 - 1/D) lie in the dense
// part, and G = max(1, N / N0)^eu max(1, N (1 - 1/D) / N0)^ec.
//
// The core criterion kappa is where the core's F and F'/r differ from the singular kernel's by
// less than a fraction of the tolerance (core_kappa), so that approximating a regularized pair by
// the singular expansion costs less than the tolerance.
//
// Cost model (per backend): time ~ near(theta) + far(p, theta), the near field growing like the
// volume around a target leaf that fails the criterion (~ theta^-3), the far field like the
// number of accepted boxes times an M2P of (p + 1)^2 terms; constants from the measured stage
// times. Of the (p, theta) that the error model says reach the tolerance, the cheapest is taken.

#include <cstddef>

#include "vortex/options.hpp"
#include "vortex/particles.hpp"

namespace vortex {

// The tolerance the defaults are chosen for (tolerance 0 in SolverOptions): the founding paper's
// accuracy, a mean relative velocity error of 2e-4.
constexpr double kDefaultTolerance = 2e-4;

// Float arithmetic adds its own error: the positions are rounded to float (relative 2^-24 of their
// distance from the middle of the sources' bounding box, the origin of the float sums), which
// against a core of radius sigma changes the pair's velocity and gradient by about that rounding
// over sigma, and the sums add their rounding. Modelled as a + b 2^-24 R, R the sources' mean
// distance from that middle in units of their own sigma, fitted to float runs at orders where
// the expansions' error is negligible (docs/journal/performance-to-2026-11-27.md, "Tolerance"): a
// thin sheet of 1e6 particles (R = 376) reached 8.7e-6 in the gradient, a cube of 20,000 (R =
// 13) 6.1e-7.
double float_rounding_error(double mean_offset_in_sigmas);

// Precision::Auto computes in float, with a tolerance, when float's rounding takes at most this
// share of it; the expansions get the rest.
constexpr double kFloatShare = 0.25;

// Largest relative deviation of the core from the singular kernel at rho = r / sigma, in F and in
// F'/r. 0 for the singular kernel.
double core_deviation(Core core, double rho);

// The smallest rho beyond which core_deviation stays below `deviation` (0 for the singular
// kernel). Throws std::invalid_argument unless 0 < deviation < 1.
double core_kappa(Core core, double deviation);

// The sources' layout for the error model: their number and their density contrast D on a grid of
// cubic cells over their bounding box, about 64 sources a cell (at most 128 cells a side):
// D = K sum_c n_c^2 / N^2 - K / N over the K occupied cells c holding n_c sources (the mean count
// around a source over the mean count of an occupied cell, less the 1/mean that a uniform random
// filling adds), at least 1. One pass over the sources.
SourceLayout layout_of(SourcesView sources);

// The error model's growth factor G for a layout (above): 1 for a uniform one.
double layout_growth(const SourceLayout& layout);

// The error model above: predicted mean relative error (velocity or gradient, the larger) of the
// far field with order p and criterion theta, for sources of that layout (default: uniform).
double predicted_far_error(int order, double theta, const SourceLayout& layout = {});

// The tree options that reach `tolerance` fastest on `backend` (Cpu or Cuda) with `core`: the
// non-zero fields of `given` are kept, the others (order, theta, kappa, buckets) picked around
// them. Where nothing reaches the tolerance (a given theta too large for any order), the point of
// least predicted error. Throws std::invalid_argument unless 0 < tolerance < 1.
TreeOptions tree_options_for_tolerance(double tolerance, Core core, Backend backend,
                                       const TreeOptions& given = {},
                                       const SourceLayout& layout = {});

}  // namespace vortex
