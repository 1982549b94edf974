#pragma once
// The treecode's parameters picked from an accuracy target (SolverOptions::tolerance, the mean
// relative error of the velocity and of its gradient): an error model in (p, theta) and the
// layout's growth with N, the core criterion, and a cost model per backend; of the (p, theta) that
// reach the tolerance the cheapest is taken. The models and their data: docs/methods/tolerance.md.

#include <cstddef>
#include <vector>

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
// 13) 6.1e-7. On an even filament (layout dimension near 1) the velocity is a small remainder of
// large contributions from both sides, which multiplies the rounding by about R / 5 (a ring of
// 200,000 particles, R = 100 to 500: 10 to 86 times the model's error): the factor
// max(1, R / 5) scaled as the filament factor of layout_growth.
double float_rounding_error(double mean_offset_in_sigmas, const SourceLayout& layout = {});

// Precision::Auto computes in float, with a tolerance, when float's rounding takes at most this
// share of it; the expansions get the rest. CUDA's defaults (no tolerance) take float, unless on
// a filament (filament_share) its rounding would take more than this share of kDefaultTolerance.
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
// filling adds), at least 1; and their dimension, how the pairs of sources that share a cell grow
// from that grid to one of cells twice as wide (layout_grid::dimension: 3 for a volume, 1 for a
// filament). One pass over the sources.
SourceLayout layout_of(SourcesView sources);

// How much of an even filament the layout is, in [0, 1]: 1 at dimension 1.25 and below, 0 from
// 1.75 up (sheets measure 1.9 to 2.2), and 0 for a clustered set (contrast 3 or more), whose
// dimension measures its clusters; times 1 for a spread across it up to 0.25 core radii, 0 from
// 0.75 (a tube resolved across: its velocity is its own swirl, no small remainder). docs/methods/
// tolerance.md, "Filaments".
double filament_share(const SourceLayout& layout);

// The sources that measure a filament's spread: every stride-th from the first, stride =
// max(1, n / kSpreadSample), the same on the host and for device arrays; spread_sample gathers
// them from host arrays as (x, y, z, sigma) a source.
constexpr std::size_t kSpreadSample = 4096;
std::size_t spread_stride(std::size_t num_sources);
std::vector<double> spread_sample(SourcesView sources, std::size_t stride);

// The spread across a filament of m sampled sources (x, y, z, sigma a source) on the layout grid
// (lo, scale and k as in layout_grid::cell_of): in each cell of at least 4 samples, the root of
// the smallest eigenvalue of their positions' covariance (0 for a line or a plane curve) over
// their mean sigma; the mean over the samples in those cells (0 where no cell holds 4).
double spread_across(const double* sample, std::size_t m, const double lo[3], double scale, int k);

// The error model's growth factor G for a layout (above): 1 for a uniform one; larger with N, for
// a clustered set, and for an even filament (dimension below 1.75).
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
